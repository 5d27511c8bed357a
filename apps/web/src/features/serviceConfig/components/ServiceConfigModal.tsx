import type { AgencyNode } from '@aed/contracts/agency'
import { Form, Modal, Spin } from 'antd'
import { useTranslation } from 'react-i18next'
import { useFormReset } from '../../../lib/useFormReset'
import { useSubmit } from '../../../lib/useSubmit'
import { validated } from '../../../lib/validated'
import { useSaveServiceConfig } from '../api/useSaveServiceConfig'
import { useServiceConfig } from '../api/useServiceConfig'
import { ServiceConfigDetail } from './ServiceConfigDetail'
import { ServiceConfigForm, type ServiceConfigValues } from './ServiceConfigForm'

export type ServiceDialog = { mode: 'create' } | { mode: 'detail' | 'modify'; id: number }
type Props = {
  dialog: ServiceDialog | null
  services: Record<string, string>
  tree: AgencyNode[]
  onClose: () => void
}

/** The service configuration dialog: plain (new), 详情 (read only) or 修改 (with secret and token). */
export function ServiceConfigModal({ dialog, services, tree, onClose }: Props) {
  const { t } = useTranslation()
  const [form] = Form.useForm<ServiceConfigValues>()
  const id = dialog && dialog.mode !== 'create' ? dialog.id : null
  const detail = useServiceConfig(id)
  const save = useSaveServiceConfig()
  const send = useSubmit(save, { onDone: onClose })
  const mode = dialog?.mode
  const current = detail.data
  const ready = mode === 'create' || Boolean(current)

  useFormReset(form, dialog && ready && mode !== 'detail' ? `${mode}:${id}` : null)

  const submit = async () => {
    if (mode === 'detail') return onClose()
    const v = await validated(form)
    if (!v) return
    await send(
      id === null
        ? { id, body: { agency_id: v.agency_id as number, service: v.service, state: v.state as 0 | 1 } }
        : { id, body: { service: v.service, state: v.state as 0 | 1, regenerate: Boolean(v.regenerate) } },
    )
  }

  return (
    <Modal
      open={dialog !== null}
      title={
        mode === 'detail'
          ? t('serviceConfig.detail')
          : mode === 'modify'
            ? t('serviceConfig.modify')
            : t('serviceConfig.plain')
      }
      width={720}
      onOk={submit}
      onCancel={onClose}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      cancelButtonProps={mode === 'detail' ? { style: { display: 'none' } } : undefined}
      okButtonProps={{ disabled: !ready }}
      confirmLoading={save.isPending}
      destroyOnHidden
      data-testid="service-modal"
    >
      {!ready ? (
        <Spin className="modal-spin" />
      ) : mode === 'detail' && current ? (
        <ServiceConfigDetail config={current} />
      ) : (
        <Form
          form={form}
          labelCol={{ span: 5 }}
          wrapperCol={{ span: 18 }}
          preserve={false}
          initialValues={
            current ? { service: current.service, state: current.state } : { service: [], state: 1 }
          }
          name="service-config"
        >
          <ServiceConfigForm
            current={mode === 'modify' ? current : undefined}
            services={services}
            tree={tree}
          />
        </Form>
      )}
    </Modal>
  )
}
