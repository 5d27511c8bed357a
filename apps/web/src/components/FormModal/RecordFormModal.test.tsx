import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Button, ConfigProvider, Form, Input } from 'antd'
import { describe, expect, it, vi } from 'vitest'
import { useRecordDialogState } from '../../lib/useRecordDialogState'
import { freshConsole } from '../../test/freshConsole'
import { renderWithProviders } from '../../test/renderWithProviders'
import { type RecordDialogLook, RecordFormModal } from './RecordFormModal'

const look: RecordDialogLook = {
  name: 'thing',
  width: 600,
  formLayout: { layout: 'vertical' },
  titles: { add: 'common.ok', edit: 'common.cancel' },
}

function Dialog({ canEdit, onOk }: { canEdit: boolean; onOk: () => void }) {
  const [form] = Form.useForm<{ name: string }>()
  return (
    <RecordFormModal
      look={look}
      open
      saving={false}
      onOk={onOk}
      onClose={() => {}}
      form={form}
      recordId={7}
      initial={{ name: 'x' }}
      canEdit={canEdit}
    >
      <Form.Item name="name">
        <Input data-testid="thing-name" />
      </Form.Item>
    </RecordFormModal>
  )
}

type Thing = { name?: string; note?: string }

/** A list page's add / edit dialog as the features have it: one form store for every opening. */
function ListPage() {
  const [form] = Form.useForm<Thing>()
  const dialog = useRecordDialogState()
  const id = dialog.modal.id
  return (
    <>
      <Button onClick={dialog.add}>add</Button>
      <Button onClick={() => dialog.edit({ id: 7 })}>edit</Button>
      <RecordFormModal
        look={look}
        {...dialog.modal}
        saving={false}
        onOk={() => {}}
        form={form}
        recordId={id}
        initial={id === null ? {} : { name: 'x', note: 'kept' }}
        canEdit
      >
        <Form.Item name="name">
          <Input data-testid="thing-name" />
        </Form.Item>
        <Form.Item name="note">
          <Input data-testid="thing-note" />
        </Form.Item>
      </RecordFormModal>
    </>
  )
}

freshConsole()

describe('RecordFormModal', () => {
  it('keeps OK disabled and never saves without the server’s can', async () => {
    const onOk = vi.fn()
    renderWithProviders(<Dialog canEdit={false} onOk={onOk} />)
    expect(await screen.findByTestId('thing-name')).toHaveValue('x')
    expect(screen.getByTestId('thing-modal')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: /确\s?定/ })).toBeDisabled()
    expect(onOk).not.toHaveBeenCalled()
  })

  it('saves with it, titled by the edit title', async () => {
    const onOk = vi.fn()
    renderWithProviders(<Dialog canEdit onOk={onOk} />)
    const ok = await screen.findByRole('button', { name: /确\s?定/ })
    expect(ok).toBeEnabled()
    ok.click()
    expect(onOk).toHaveBeenCalledTimes(1)
  })

  it('opens an add dialog empty after editing a record, whatever was typed there', async () => {
    // Without motion the closed dialog's content unmounts at once, as a browser's does after its
    // closing animation: the next dialog mounts a fresh form on the same store.
    renderWithProviders(
      <ConfigProvider theme={{ token: { motion: false } }}>
        <ListPage />
      </ConfigProvider>,
    )
    const user = userEvent.setup()
    for (let round = 0; round < 2; round++) {
      await user.click(screen.getByRole('button', { name: 'edit' }))
      expect(await screen.findByTestId('thing-name')).toHaveValue('x')
      await user.type(screen.getByTestId('thing-note'), ' typed')
      await user.click(screen.getByRole('button', { name: /取\s?消/ }))
      await waitFor(() => expect(screen.queryByTestId('thing-name')).toBeNull())
      await user.click(screen.getByRole('button', { name: 'add' }))
      expect(await screen.findByTestId('thing-name')).toHaveValue('')
      expect(screen.getByTestId('thing-note')).toHaveValue('')
      await user.type(screen.getByTestId('thing-name'), 'new')
      await user.click(screen.getByRole('button', { name: /取\s?消/ }))
      await waitFor(() => expect(screen.queryByTestId('thing-name')).toBeNull())
    }
    await user.click(screen.getByRole('button', { name: 'add' }))
    expect(await screen.findByTestId('thing-name')).toHaveValue('')
  })
})
