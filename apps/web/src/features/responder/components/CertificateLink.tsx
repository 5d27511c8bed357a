import { Button, Image } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'

/** 查看证书: opens the certificate image in a full-screen overlay. */
export function CertificateLink({ src }: { src: string }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button type="link" size="small" onClick={() => setOpen(true)} data-testid="responder-certificate-view">
        {t('responder.viewCertificate')}
      </Button>
      <Image
        src={src}
        alt={t('responder.certificateImg')}
        style={{ display: 'none' }}
        preview={{ open, onOpenChange: setOpen, src }}
      />
    </>
  )
}
