import type { Envelope } from '@aed/contracts'
import type { UseMutationResult } from '@tanstack/react-query'
import { Form, TreeSelect, type TreeSelectProps, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { FormFreshStart } from '../FormModal/FormFreshStart'
import { FormModal } from '../FormModal/FormModal'
import { useFormDialog } from '../FormModal/useFormDialog'

/** What a feature brings to the assign dialog (module constants: its hook never changes). */
export type AssignFeature<V, D> = {
  /** The feature's assign call. */
  useAssign: () => UseMutationResult<Envelope<D>, Error, V>
  /** Its body for the chosen organisation and rows. */
  body: (agencyId: number, ids: number[]) => V
  /** Translation keys of the texts: `count` takes the rows' count; `required` is the picker's placeholder too. */
  texts: { title: string; count: string; agency: string; required: string }
  /** The dialog is `${testId}-modal`, its picker `${testId}-agency`. */
  testId: string
}

type Props<V, D> = AssignFeature<V, D> & {
  /** The chosen rows; null: closed. */
  ids: number[] | null
  /** The organisations that may be picked, as TreeSelect options. */
  agencies: TreeSelectProps['treeData']
  onClose: () => void
  onDone: () => void
}

/** 分配: the chosen rows go to an organisation of the subtree. */
export function AgencyAssignModal<V, D>({
  ids,
  agencies,
  onClose,
  onDone,
  useAssign,
  body,
  texts,
  testId,
}: Props<V, D>) {
  const { t } = useTranslation()
  const [form] = Form.useForm<{ agency_id?: number }>()
  const assign = useAssign()
  const { send, modal } = useFormDialog(assign, {
    open: ids !== null,
    onClose,
    onDone: () => {
      onDone()
      onClose()
    },
  })
  const submit = async () => {
    const v = await form.validateFields().catch(() => null)
    if (!v?.agency_id || !ids) return
    await send(body(v.agency_id, ids))
  }
  return (
    <FormModal {...modal} title={t(texts.title)} onOk={submit} testId={`${testId}-modal`}>
      <Typography.Paragraph type="secondary">
        {t(texts.count, { count: ids?.length ?? 0 })}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="agency_id"
          label={t(texts.agency)}
          rules={[{ required: true, message: t(texts.required) }]}
        >
          <TreeSelect
            treeData={agencies}
            treeDefaultExpandAll
            showSearch={{ treeNodeFilterProp: 'title' }}
            placeholder={t(texts.required)}
            data-testid={`${testId}-agency`}
          />
        </Form.Item>
        <FormFreshStart />
      </Form>
    </FormModal>
  )
}
