import type { AgencyNode } from '@aed/contracts/agency'
import { Form, Modal, TreeSelect, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { useSubmit } from '../../../lib/useSubmit'
import { agencyTreeOptions } from '../../device/components/agencyOptions'
import { useAssignCabinets } from '../api/useAssignCabinets'

type Props = { ids: number[] | null; tree: AgencyNode[]; onClose: () => void; onDone: () => void }

/** 分配: the chosen cabinets go to an organisation of the subtree. */
export default function AssignCabinetsModal({ ids, tree, onClose, onDone }: Props) {
  const { t } = useTranslation()
  const [form] = Form.useForm<{ agency_id?: number }>()
  const assign = useAssignCabinets()
  const send = useSubmit(assign, {
    onDone: () => {
      onDone()
      onClose()
    },
  })
  const submit = async () => {
    const v = await form.validateFields().catch(() => null)
    if (!v?.agency_id || !ids) return
    await send({ agency_id: v.agency_id, cabinet_ids: ids })
  }
  return (
    <Modal
      open={ids !== null}
      title={t('cabinet.assign.title')}
      onOk={submit}
      onCancel={onClose}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={assign.isPending}
      destroyOnHidden
      data-testid="cabinet-assign-modal"
    >
      <Typography.Paragraph type="secondary">
        {t('cabinet.assign.count', { count: ids?.length ?? 0 })}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="agency_id"
          label={t('cabinet.assign.agency')}
          rules={[{ required: true, message: t('cabinet.assign.agencyRequired') }]}
        >
          <TreeSelect
            treeData={agencyTreeOptions(tree)}
            treeDefaultExpandAll
            showSearch={{ treeNodeFilterProp: 'title' }}
            placeholder={t('cabinet.assign.agencyRequired')}
            data-testid="cabinet-assign-agency"
          />
        </Form.Item>
      </Form>
    </Modal>
  )
}
