import { Modal } from 'antd'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

type Props = {
  open: boolean
  title: ReactNode
  width: number
  /** False for read-only users and while the record loads: OK stays disabled. */
  canSave?: boolean
  saving: boolean
  onOk: () => void
  onClose: () => void
  testId: string
  children: ReactNode
}

/** The add / edit dialog of the administration pages: one look, one set of button rules. */
export function FormModal({
  open,
  title,
  width,
  canSave = true,
  saving,
  onOk,
  onClose,
  testId,
  children,
}: Props) {
  const { t } = useTranslation()
  return (
    <Modal
      open={open}
      title={title}
      width={width}
      onOk={onOk}
      onCancel={onClose}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !canSave }}
      confirmLoading={saving}
      destroyOnHidden
      data-testid={testId}
    >
      {children}
    </Modal>
  )
}
