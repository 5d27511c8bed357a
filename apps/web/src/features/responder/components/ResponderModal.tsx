import { translate } from '@aed/contracts/messages'
import { responderSubmitCheck } from '@aed/contracts/responder-rules'
import { App, Divider, Form, Row, Spin } from 'antd'
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import { FormFreshStart } from '../../../components/FormModal/FormFreshStart'
import { FormModal } from '../../../components/FormModal/FormModal'
import { useRecordDialog } from '../../../components/FormModal/useFormDialog'
import { DATE_FORMAT, formatDate } from '../../../lib/datetime'
import { useFormReset } from '../../../lib/useFormReset'
import { useSession } from '../../../lib/useSession'
import { validated } from '../../../lib/validated'
import { useResponder } from '../api/useResponder'
import { useSaveResponder } from '../api/useSaveResponder'
import { ResponderAddressFields } from './ResponderAddressFields'
import { ResponderAgencyFields } from './ResponderAgencyFields'
import { ResponderPersonFields } from './ResponderPersonFields'
import { ResponderQualificationFields } from './ResponderQualificationFields'
import {
  fromResponder,
  newResponderValues,
  type ResponderFormValues,
  submitValues,
  toResponderForm,
} from './responderFormValues'
import { usePhonePrefill } from './usePhonePrefill'

export const RESPONDER_DIALOG_WIDTH = 1000

type Props = {
  id: number | null
  open: boolean
  /** The list's `can.create`; the responder's own `can.edit` decides when editing. */
  canCreate: boolean
  onClose: () => void
}

/** 登记急救人员 / 编辑急救人员: the person, the qualification and certificate, the address on the map, the organisation. */
export default function ResponderModal({ id, open, canCreate, onClose }: Props) {
  const { t, i18n } = useTranslation()
  const { message } = App.useApp()
  const { userInfo } = useSession()
  const [form] = Form.useForm<ResponderFormValues>()
  const detail = useResponder(open ? id : null)
  const save = useSaveResponder()
  const { send, editing, modal } = useRecordDialog(save, form, id, { open, onClose })
  const stored = detail.data
  const canEdit = editing ? (stored?.can.edit ?? false) : canCreate
  const initial = editing ? stored && fromResponder(stored) : newResponderValues(userInfo?.agency_id)
  const prefill = usePhonePrefill(form)
  useFormReset(form, open && initial ? String(id) : null, detail.dataUpdatedAt)

  // The phone comes first: it may bring an existing account whose fields it fills.
  const phoneReady = (quiet = false) => {
    if (editing || String(form.getFieldValue('phone') ?? '').trim()) return true
    if (!quiet) message.warning(t('responder.phoneFirst'))
    return false
  }
  const onValuesChange = (changed: Partial<ResponderFormValues>) => {
    if ('phone' in changed || phoneReady()) return
    form.resetFields(Object.keys(changed) as (keyof ResponderFormValues)[])
  }

  const submit = async () => {
    const values = form.getFieldsValue(true) as ResponderFormValues
    const problem = responderSubmitCheck(submitValues(values), canEdit)
    if (problem) {
      message.error(translate(problem, i18n.language === 'en-US' ? 'en-US' : 'zh-CN'))
      void validated(form)
      return
    }
    if ((await validated(form)) === null) return
    await send({ id, form: toResponderForm(values) })
  }

  const by = editing
    ? {
        label: t('responder.updater'),
        name: stored?.updator_name ?? '',
        dateLabel: t('responder.updateDate'),
        date: formatDate(stored?.update_time),
      }
    : {
        label: t('responder.registrant'),
        name: userInfo?.user_name ?? '',
        dateLabel: t('responder.registerDate'),
        date: dayjs().format(DATE_FORMAT),
      }

  return (
    <FormModal
      {...modal}
      title={t(editing ? 'responder.editTitle' : 'responder.addTitle')}
      width={RESPONDER_DIALOG_WIDTH}
      canSave={canEdit && Boolean(initial)}
      onOk={submit}
      testId="responder-modal"
    >
      {initial ? (
        <Form
          form={form}
          layout="vertical"
          initialValues={initial}
          preserve={false}
          name="responder"
          disabled={!canEdit}
          onValuesChange={onValuesChange}
        >
          <Row gutter={24}>
            <ResponderPersonFields editing={editing} disabled={!canEdit} onPhone={prefill} />
            <ResponderAddressFields disabled={!canEdit} phoneReady={phoneReady} />
            <ResponderQualificationFields disabled={!canEdit} />
          </Row>
          <Divider className="responder-divider" />
          <Row gutter={24}>
            <ResponderAgencyFields
              disabled={!canEdit}
              agencyName={(editing ? stored?.agency_name : userInfo?.agency_name) ?? ''}
              by={by}
            />
          </Row>
          <FormFreshStart />
        </Form>
      ) : (
        <Spin className="modal-spin" />
      )}
    </FormModal>
  )
}
