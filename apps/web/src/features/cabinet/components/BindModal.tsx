import type { Cabinet } from '@aed/contracts/cabinet'
import { CabinetUpdateType } from '@aed/contracts/cabinet'
import { boundModel } from '@aed/contracts/cabinet-rules'
import { Descriptions, Form, Input, Modal, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { FormFreshStart } from '../../../components/FormModal/FormFreshStart'
import { useSubmit } from '../../../lib/useSubmit'
import { useUpdateCabinet } from '../api/useUpdateCabinet'

type Props = { cabinet: Cabinet | null; onClose: () => void }

/**
 * 绑定 / 解绑: an empty cabinet takes an AED serial (its model shown as it is typed, from
 * characters 2-3); a bound one shows its AED and lets it go. The server's message on success.
 */
export default function BindModal({ cabinet, onClose }: Props) {
  const { t } = useTranslation()
  const [form] = Form.useForm<{ device_sn?: string }>()
  const serial = Form.useWatch('device_sn', form)
  const update = useUpdateCabinet()
  const send = useSubmit(update, { onDone: onClose })
  const bound = cabinet?.bind_device === 1

  const submit = async () => {
    if (!cabinet) return
    if (bound) {
      await send({
        id: cabinet.id,
        body: { update_type: CabinetUpdateType.UNBIND, cabinet_sn: cabinet.cabinet_sn },
      })
      return
    }
    const v = await form.validateFields().catch(() => null)
    if (!v) return
    await send({
      id: cabinet.id,
      body: {
        update_type: CabinetUpdateType.BIND,
        cabinet_sn: cabinet.cabinet_sn,
        device_sn: (v.device_sn ?? '').trim(),
      },
    })
  }

  return (
    <Modal
      open={cabinet !== null}
      title={bound ? t('cabinet.bind.unbindTitle') : t('cabinet.bind.title')}
      onOk={submit}
      onCancel={onClose}
      okText={bound ? t('cabinet.actions.unbind') : t('common.ok')}
      okButtonProps={{ danger: bound }}
      cancelText={t('common.cancel')}
      confirmLoading={update.isPending}
      destroyOnHidden
      data-testid="bind-modal"
    >
      {cabinet && bound ? (
        <>
          <Typography.Paragraph>
            {t('cabinet.bind.unbindConfirm', { sn: cabinet.device_sn, cabinet: cabinet.cabinet_sn })}
          </Typography.Paragraph>
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label={t('cabinet.sn')}>{cabinet.cabinet_sn}</Descriptions.Item>
            <Descriptions.Item label={t('cabinet.boundAed')}>{cabinet.device_sn}</Descriptions.Item>
            <Descriptions.Item label={t('cabinet.aedModel')}>
              {cabinet.device_model || t('table.empty')}
            </Descriptions.Item>
          </Descriptions>
        </>
      ) : (
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item label={t('cabinet.sn')}>
            <Input value={cabinet?.cabinet_sn} disabled />
          </Form.Item>
          <Form.Item
            name="device_sn"
            label={t('cabinet.bind.sn')}
            rules={[
              { required: true, message: t('cabinet.bind.required') },
              { whitespace: true, message: t('cabinet.bind.empty') },
            ]}
          >
            <Input placeholder={t('cabinet.bind.snPlaceholder')} maxLength={50} data-testid="bind-sn" />
          </Form.Item>
          <Form.Item label={t('cabinet.bind.model')}>
            <Input value={boundModel(serial)} disabled data-testid="bind-model" />
          </Form.Item>
          <FormFreshStart />
        </Form>
      )}
    </Modal>
  )
}
