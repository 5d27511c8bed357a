import { Modal, Typography } from 'antd'
import { useTranslation } from 'react-i18next'

export type LegalKind = 'terms' | 'privacy'

/** The terms of service or privacy policy text. */
export function LegalModal({ kind, onClose }: { kind: LegalKind | null; onClose: () => void }) {
  const { t } = useTranslation()
  const paragraphs = kind ? (t(`legal.${kind}`, { returnObjects: true }) as unknown as string[]) : []
  return (
    <Modal
      open={kind !== null}
      title={kind === 'privacy' ? t('legal.privacyTitle') : t('legal.termsTitle')}
      onCancel={onClose}
      onOk={onClose}
      okText={t('common.ok')}
      cancelButtonProps={{ style: { display: 'none' } }}
      destroyOnHidden
    >
      {paragraphs.map((text) => (
        <Typography.Paragraph key={text}>{text}</Typography.Paragraph>
      ))}
    </Modal>
  )
}
