import { type DeviceLocations, dashboardApi } from '@aed/contracts/dashboard'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../lib/errors'
import { sessionStore } from '../../../lib/session'
import { storage } from '../../../lib/storage'
import { userInfo } from '../../../test/fixtures'
import { type MockCall, mockApi, recordOn } from '../../../test/mockApi'
import type { Fetched } from '../map/clusterClient'
import { fetchDeviceLayer } from './fetchDeviceLayer'

// The cluster worker as the page sees it: what it was asked to fetch, and what it answers.
const worker = vi.hoisted(() => ({
  present: true,
  asked: [] as { url: string; headers: [string, string][] }[],
  answer: null as Fetched | null,
}))
vi.mock('../map/clusterClient', () => ({
  clusterClient: () =>
    worker.present
      ? {
          fetch: async (url: string, headers: [string, string][]) => {
            worker.asked.push({ url, headers })
            return worker.answer
          },
        }
      : null,
}))

const located: MockCall[] = []
const answer: DeviceLocations = { '0': [[1, 120.15, 30.28]], '1': [], '2': [], '3': [], '4': [], unplaced: 0 }
const query = { address_code: '330100', status_list: '[0,2]' }
const layer = {
  ids: Int32Array.from([7]),
  coords: Float64Array.from([120.1, 30.2]),
  statuses: Uint8Array.from([2]),
  unplaced: 1,
  dataset: 3,
}

function api(code = 0) {
  located.length = 0
  return mockApi([
    recordOn(dashboardApi.deviceLocation, located, () => {
      if (code !== 0) return { code, msg: '无权访问' }
      return { code, data: answer }
    }),
  ])
}

beforeEach(() => {
  worker.present = true
  worker.asked.length = 0
  worker.answer = null
  storage.clear()
  sessionStore.clear()
  sessionStore.signIn(userInfo())
})

describe('fetchDeviceLayer', () => {
  it('lets the worker fetch with the request client’s headers and gives its devices as they are', async () => {
    api()
    worker.answer = {
      layer,
      timing: {
        responseEnd: performance.timeOrigin + 5,
        transferSize: 1,
        encodedBodySize: 1,
        decodedBodySize: 2,
      },
    }
    await expect(fetchDeviceLayer(query, new AbortController().signal)).resolves.toBe(layer)
    const asked = worker.asked[0]
    expect(asked.url).toBe(
      '/api/v1/analysis-board/device/location/?address_code=330100&status_list=%5B0%2C2%5D',
    )
    // Header names are case-insensitive (Headers gives them in lower case).
    const headers = new Headers(asked.headers)
    expect(headers.get('Authorization')).toBe(`JWT ${userInfo().token}`)
    expect(headers.get('username')).toBe(userInfo().phone)
    expect(headers.get('Accept-Language')).toBeTruthy()
    expect(located).toHaveLength(0)
    expect(performance.getEntriesByName('dashboard:response').at(-1)?.startTime).toBeCloseTo(5)
  })

  it('asks again through the request client when the worker read no code-0 answer, which shows the error', async () => {
    api(-2)
    await expect(fetchDeviceLayer(query, new AbortController().signal)).rejects.toBeInstanceOf(ApiError)
    expect(worker.asked).toHaveLength(1)
    expect(located).toHaveLength(1)
    expect(located[0].query.get('status_list')).toBe('[0,2]')
  })

  it('reads the answer on the main thread where there is no worker', async () => {
    worker.present = false
    api()
    const read = await fetchDeviceLayer({ status_list: '[0,1,2,3,4]' }, new AbortController().signal)
    expect([...read.ids]).toEqual([1])
    expect([...read.coords]).toEqual([120.15, 30.28])
    expect(read.dataset).toBeNull()
    expect(located[0].query.has('address_code')).toBe(false)
  })

  it('is aborted with the query, without asking again', async () => {
    api()
    const controller = new AbortController()
    const pending = fetchDeviceLayer(query, controller.signal)
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
    expect(located).toHaveLength(0)
  })
})
