import { AidAptitude, CERT_IMAGE_SUFFIX } from '@aed/contracts/responder'
import { DatePicker, Form, Input, Select } from 'antd'
import { useTranslation } from 'react-i18next'
import { FieldCol } from '../../../components/FieldCol/FieldCol'
import { ImageUpload } from '../../../components/ImageUpload/ImageUpload'
import { useDict } from '../../../lib/useDict'
import type { ResponderFormValues } from './responderFormValues'

/**
 * The first-aid qualification and a professional's certificate: number, expiry and image,
 * required only then; hidden for a non-professional, whose certificate fields are sent empty.
 */
export function ResponderQualificationFields({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation()
  const dict = useDict()
  const form = Form.useFormInstance<ResponderFormValues>()
  const professional = Form.useWatch('aid_aptitude', form) === AidAptitude.PROFESSIONAL
  const required = (key: string) => t(`responder.required.${key}`)
  return (
    <>
      <FieldCol span={6} name="aid_aptitude" label={t('responder.aptitude')} required={required('aptitude')}>
        <Select
          disabled={disabled}
          placeholder={required('aptitude')}
          options={dict.options('aid_aptitude')}
          data-testid="responder-aptitude"
        />
      </FieldCol>
      {professional && (
        <>
          <FieldCol
            span={6}
            name="certificate_num"
            label={t('responder.certificateNum')}
            required={required('certificateNum')}
            whitespace
          >
            <Input
              maxLength={50}
              disabled={disabled}
              placeholder={required('certificateNum')}
              data-testid="responder-certificate-num"
            />
          </FieldCol>
          <FieldCol
            span={6}
            name="certificate_expire"
            label={t('responder.certificateExpire')}
            required={required('certificateExpire')}
          >
            <DatePicker
              disabled={disabled}
              style={{ width: '100%' }}
              placeholder={required('certificateExpire')}
              data-testid="responder-certificate-expire"
            />
          </FieldCol>
          {/* Marked required; the submit-time check says 请添加证书图片! in its place in the order. */}
          <FieldCol span={6} name="certificate_img" label={t('responder.certificateImg')} required>
            <ImageUpload disabled={disabled} allowSuffix={CERT_IMAGE_SUFFIX} />
          </FieldCol>
        </>
      )}
    </>
  )
}
