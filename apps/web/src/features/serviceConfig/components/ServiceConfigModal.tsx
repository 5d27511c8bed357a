import type { AgencyNode } from '@aed/contracts/agency'
import { Form, Modal, Spin } from 'antd'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { FormFreshStart } from '../../../components/FormModal/FormFreshStart'
import { useFormReset } from '../../../lib/useFormReset'
import { useSubmit } from '../../../lib/useSubmit'
import { validated } from '../../../lib/validated'
import { useSaveServiceConfig } from '../api/useSaveServiceConfig'
import { useServiceConfig } from '../api/useServiceConfig'
import { type Issued, IssuedSecretModal, issuedBy } from './IssuedSecretModal'
import { pushUrlToSend } from './pushUrl'
import { ServiceConfigDetail } from './ServiceConfigDetail'
import { ServiceConfigForm, type ServiceConfigValues } from './ServiceConfigForm'
import { usePushActions } from './usePushActions'

export type ServiceDialog = { mode: 'create' } | { mode: 'detail' | 'modify'; id: number }
type Props = {
  dialog: ServiceDialog | null
  services: Record<string, string>
  tree: AgencyNode[]
  onClose: () => void
}

/**
 * The service configuration dialog: plain (new), 详情 (read only) or 修改 (with secret and token);
 * after a save that issued a webhook secret or new credentials, the dialog that shows them once.
 */
export function ServiceConfigModal({ dialog, services, tree, onClose }: Props) {
  const { t } = useTranslation()
  const [form] = Form.useForm<ServiceConfigValues>()
  const [issued, setIssued] = useState<Issued | null>(null)
  const id = dialog && dialog.mode !== 'create' ? dialog.id : null
  const detail = useServiceConfig(id)
  const save = useSaveServiceConfig()
  // Whether the save being sent regenerates the access token and secret (read when it answers).
  const regenerating = useRef(false)
  const send = useSubmit(save, {
    onDone: (answer) => {
      onClose()
      setIssued(issuedBy(answer, regenerating.current))
    },
  })
  const mode = dialog?.mode
  const current = detail.data
  const ready = mode === 'create' || Boolean(current)
  useFormReset(form, dialog && ready && mode !== 'detail' ? `${mode}:${id}` : null)
  const push = usePushActions(current, (answer) => setIssued(issuedBy(answer, false)))

  const submit = async () => {
    if (mode === 'detail') return onClose()
    const v = await validated(form)
    if (!v) return
    const state = v.state as 0 | 1
    const pushUrl = pushUrlToSend(v.service, v.push_url)
    if (id === null) {
      regenerating.current = false
      await send({
        id,
        body: { agency_id: v.agency_id as number, service: v.service, state, push_url: pushUrl },
      })
      return
    }
    regenerating.current = Boolean(v.regenerate)
    await send({
      id,
      body: {
        service: v.service,
        state,
        regenerate: Boolean(v.regenerate),
        push_url: pushUrl,
        // A first push URL gets a fresh secret, answered once here, as a created one would be.
        ...(pushUrl && !current?.push_url ? { regenerate_push_secret: true } : {}),
      },
    })
  }

  return (
    <>
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
              current
                ? { service: current.service, state: current.state, push_url: current.push_url ?? '' }
                : { service: [], state: 1, push_url: '' }
            }
            name="service-config"
          >
            <ServiceConfigForm
              current={mode === 'modify' ? current : undefined}
              services={services}
              tree={tree}
              push={mode === 'modify' ? push : undefined}
            />
            <FormFreshStart />
          </Form>
        )}
      </Modal>
      <IssuedSecretModal issued={issued} onClose={() => setIssued(null)} />
    </>
  )
}
