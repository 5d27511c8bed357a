import { CERT_IMAGE_SUFFIX, type Responder } from '@aed/contracts/responder'
import { DatePicker, Form, Input } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { useTranslation } from 'react-i18next'
import { FormFreshStart } from '../../../components/FormModal/FormFreshStart'
import { FormModal } from '../../../components/FormModal/FormModal'
import { useFormDialog } from '../../../components/FormModal/useFormDialog'
import { ImageUpload } from '../../../components/ImageUpload/ImageUpload'
import { DATE_FORMAT } from '../../../lib/datetime'
import { useFormReset } from '../../../lib/useFormReset'
import { validated } from '../../../lib/validated'
import { useRenewResponder } from '../api/useRenewResponder'

type Values = { certificate_expire?: Dayjs; certificate_img?: string | null; certificate_num?: string }
type Props = { responder: Responder | null; onClose: () => void }

/** 证书续期: a new expiry after today and a new image; a new number only when it changed. */
export default function RenewModal({ responder, onClose }: Props) {
  const { t } = useTranslation()
  const [form] = Form.useForm<Values>()
  const save = useRenewResponder()
  const { send, modal } = useFormDialog(save, { open: responder !== null, onClose })
  useFormReset(form, responder ? String(responder.id) : null)

  const submit = async () => {
    const v = await validated(form)
    if (!responder || !v?.certificate_expire || !v.certificate_img) return
    await send({
      id: responder.id,
      body: {
        certificate_expire: v.certificate_expire.format(DATE_FORMAT),
        certificate_img: v.certificate_img,
        certificate_num: v.certificate_num?.trim() || undefined,
      },
    })
  }

  return (
    <FormModal {...modal} title={t('responder.renewTitle')} onOk={submit} testId="responder-renew-modal">
      <Form form={form} layout="vertical" preserve={false} name="responder-renew">
        <p>{t('responder.renewFor', { name: responder?.name ?? '' })}</p>
        <Form.Item
          name="certificate_expire"
          label={t('responder.newExpire')}
          rules={[{ required: true, message: t('responder.required.certificateExpire') }]}
        >
          <DatePicker
            style={{ width: '100%' }}
            disabledDate={(d) => !d.isAfter(dayjs(), 'day')}
            data-testid="responder-renew-expire"
          />
        </Form.Item>
        <Form.Item
          name="certificate_img"
          label={t('responder.newImage')}
          rules={[{ required: true, message: t('responder.required.certificateImg') }]}
        >
          <ImageUpload allowSuffix={CERT_IMAGE_SUFFIX} />
        </Form.Item>
        <Form.Item name="certificate_num" label={t('responder.newNum')}>
          <Input
            maxLength={50}
            placeholder={responder?.certificate_num ?? t('responder.newNumPlaceholder')}
            data-testid="responder-renew-num"
          />
        </Form.Item>
        <FormFreshStart />
      </Form>
    </FormModal>
  )
}
