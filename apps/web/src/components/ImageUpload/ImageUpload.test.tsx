import { filesApi } from '@aed/contracts/files'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { i18n } from '../../i18n'
import { userInfo } from '../../test/fixtures'
import { freshConsole } from '../../test/freshConsole'
import { type MockCall, mockApi, recordOn } from '../../test/mockApi'
import { renderWithProviders } from '../../test/renderWithProviders'
import { ImageUpload } from './ImageUpload'

const uploads: MockCall[] = []
freshConsole({
  reset: () => {
    uploads.length = 0
  },
  signedIn: userInfo(),
})

function setup(check?: (file: File) => string | null) {
  mockApi([
    recordOn(filesApi.upload, uploads, () => ({
      code: 0,
      data: { access_url: '/files/a.png', file_name: 'a.png', size: 3, content_type: 'image/png' },
    })),
  ])
  const onChange = vi.fn()
  renderWithProviders(<ImageUpload onChange={onChange} check={check} />)
  const input = () => document.querySelector('input[type=file]') as HTMLInputElement
  return { user: userEvent.setup({ applyAccept: false }), input, onChange }
}

const sized = (name: string, type: string, size: number) => {
  const file = new File(['x'], name, { type })
  Object.defineProperty(file, 'size', { value: size })
  return file
}

describe('ImageUpload', () => {
  it('refuses anything but jpg/jpeg/png before sending, the txt the spec allows too', async () => {
    const { user, input } = setup()
    await user.upload(input(), new File(['GIF89a'], 'a.gif', { type: 'image/gif' }))
    expect(await screen.findByText('只能上传jpg/jpeg/png格式的图片！')).toBeInTheDocument()
    await user.upload(input(), new File(['text'], 'a.txt', { type: 'text/plain' }))
    await user.upload(input(), new File(['x'], 'fake.png', { type: 'application/x-msdownload' }))
    expect(uploads).toHaveLength(0)
  })

  it('refuses an image over 20M and sends one of exactly 20M', async () => {
    const { user, input, onChange } = setup()
    await user.upload(input(), sized('big.jpg', 'image/jpeg', 20 * 1024 * 1024 + 1))
    expect(await screen.findByText('图片大小不能超过20M！')).toBeInTheDocument()
    expect(uploads).toHaveLength(0)
    await user.upload(input(), sized('ok.JPEG', 'image/jpeg', 20 * 1024 * 1024))
    await waitFor(() => expect(uploads).toHaveLength(1))
    expect((uploads[0].init?.body as FormData).get('allow_suffix')).toBe('txt,png,jpeg,jpg')
    await waitFor(() => expect(onChange).toHaveBeenCalledWith('/files/a.png'))
  })

  it('says it in English in en-US, in the spec’s words', async () => {
    await i18n.changeLanguage('en-US')
    const { user, input } = setup()
    await user.upload(input(), new File(['x'], 'a.bmp', { type: 'image/bmp' }))
    expect(await screen.findByText('only jpg/jpeg/png images can be uploaded!')).toBeInTheDocument()
    await user.upload(input(), sized('big.png', 'image/png', 21 * 1024 * 1024))
    expect(await screen.findByText('image size cannot exceed 20M!')).toBeInTheDocument()
  })

  it('applies a caller’s check after the image rule', async () => {
    const check = vi.fn(() => '最多上传2张图片')
    const { user, input } = setup(check)
    await user.upload(input(), new File(['x'], 'a.gif', { type: 'image/gif' }))
    expect(await screen.findByText('只能上传jpg/jpeg/png格式的图片！')).toBeInTheDocument()
    expect(check).not.toHaveBeenCalled()
    await user.upload(input(), new File(['x'], 'a.png', { type: 'image/png' }))
    expect(await screen.findByText('最多上传2张图片')).toBeInTheDocument()
    expect(uploads).toHaveLength(0)
  })
})
