import { QueryClient, useQuery } from '@tanstack/react-query'
import { act, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { i18n } from '../i18n'
import { AppProviders } from './AppProviders'

// The server answers labels in the request's language: a language switch must fetch them again.

afterEach(async () => {
  await i18n.changeLanguage('zh-CN')
})

describe('the query cache after a language switch', () => {
  it('fetches every shown query again in the new language', async () => {
    await i18n.changeLanguage('zh-CN')
    const asked: string[] = []
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } })
    function Label() {
      const q = useQuery({
        queryKey: ['label'],
        queryFn: async () => {
          asked.push(i18n.language)
          return i18n.language === 'en-US' ? 'Event push' : '事件推送'
        },
      })
      return <span data-testid="label">{q.data}</span>
    }
    render(
      <AppProviders client={client}>
        <Label />
      </AppProviders>,
    )
    await waitFor(() => expect(screen.getByTestId('label').textContent).toBe('事件推送'))
    await act(async () => {
      await i18n.changeLanguage('en-US')
    })
    await waitFor(() => expect(screen.getByTestId('label').textContent).toBe('Event push'))
    expect(asked).toEqual(['zh-CN', 'en-US'])
  })
})
