import { Button, Modal } from 'antd'
import { useTranslation } from 'react-i18next'

/** Tells that the browser held the alarm sound back; its button's click starts it. */
export function AutoplayDialog({ open, onPlay }: { open: boolean; onPlay: () => void }) {
  const { t } = useTranslation()
  return (
    <Modal
      open={open}
      title={t('message.autoplay.title')}
      closable={false}
      mask={{ closable: false }}
      width={360}
      zIndex={1100}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onPlay} data-testid="autoplay-play">
          {t('message.autoplay.play')}
        </Button>
      }
    >
      {open && <div data-testid="autoplay-dialog">{t('message.autoplay.text')}</div>}
    </Modal>
  )
}
