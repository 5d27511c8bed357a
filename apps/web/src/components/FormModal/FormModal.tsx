import { Modal, type ModalProps } from 'antd'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

type Props = Omit<ModalProps, 'onCancel' | 'confirmLoading' | 'destroyOnHidden' | 'onOk'> & {
  /** False for read-only users and while the record loads: OK stays disabled. */
  canSave?: boolean
  saving: boolean
  onOk: () => void
  onClose: () => void
  testId?: string
  children: ReactNode
}

/** The form dialog of the console: one look (OK and cancel texts, no state kept), one set of button rules. */
export function FormModal({
  canSave = true,
  saving,
  onClose,
  testId,
  okButtonProps,
  children,
  ...modal
}: Props) {
  const { t } = useTranslation()
  return (
    <Modal
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      {...modal}
      onCancel={onClose}
      okButtonProps={{ ...okButtonProps, disabled: !canSave }}
      confirmLoading={saving}
      destroyOnHidden
      data-testid={testId}
    >
      {children}
    </Modal>
  )
}
