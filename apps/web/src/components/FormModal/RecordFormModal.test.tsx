import { screen } from '@testing-library/react'
import { Form, Input } from 'antd'
import { describe, expect, it, vi } from 'vitest'
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
})
