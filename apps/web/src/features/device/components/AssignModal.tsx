import type { AgencyNode } from '@aed/contracts/agency'
import { Form, Modal, TreeSelect, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { useSubmit } from '../../../lib/useSubmit'
import { useAssignDevices } from '../api/useAssignDevices'
import { agencyTreeOptions } from './agencyOptions'

type Props = { ids: number[] | null; tree: AgencyNode[]; onClose: () => void; onDone: () => void }

/** 分配设备: the chosen factory devices go to an organisation of the subtree. */
export default function AssignModal({ ids, tree, onClose, onDone }: Props) {
  const { t } = useTranslation()
  const [form] = Form.useForm<{ agency_id?: number }>()
  const assign = useAssignDevices()
  const send = useSubmit(assign, {
    onDone: () => {
      onDone()
      onClose()
    },
  })
  const submit = async () => {
    const v = await form.validateFields().catch(() => null)
    if (!v?.agency_id || !ids) return
    await send({ agency_id: v.agency_id, device_ids: ids })
  }
  return (
    <Modal
      open={ids !== null}
      title={t('device.factory.assignTitle')}
      onOk={submit}
      onCancel={onClose}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={assign.isPending}
      destroyOnHidden
      data-testid="assign-modal"
    >
      <Typography.Paragraph type="secondary">
        {t('device.factory.assignCount', { count: ids?.length ?? 0 })}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="agency_id"
          label={t('device.factory.assignAgency')}
          rules={[{ required: true, message: t('device.required.agency') }]}
        >
          <TreeSelect
            treeData={agencyTreeOptions(tree)}
            treeDefaultExpandAll
            showSearch={{ treeNodeFilterProp: 'title' }}
            placeholder={t('device.required.agency')}
            data-testid="assign-agency"
          />
        </Form.Item>
      </Form>
    </Modal>
  )
}
