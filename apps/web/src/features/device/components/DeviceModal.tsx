import type { AgencyNode } from '@aed/contracts/agency'
import { App, Col, Form, Row, Spin } from 'antd'
import { useTranslation } from 'react-i18next'
import { FormFreshStart } from '../../../components/FormModal/FormFreshStart'
import { FormModal } from '../../../components/FormModal/FormModal'
import { useFormDialog } from '../../../components/FormModal/useFormDialog'
import { useAreaLevel } from '../../../lib/useAreaLevel'
import { useFormReset } from '../../../lib/useFormReset'
import { useSession } from '../../../lib/useSession'
import { validated } from '../../../lib/validated'
import { useDevice } from '../api/useDevice'
import { useSaveDevice } from '../api/useSaveDevice'
import { deviceProblem } from '../deviceRules'
import { DeviceIdentityFields } from './DeviceIdentityFields'
import { DeviceOpenFields } from './DeviceOpenFields'
import { DeviceSiteFields } from './DeviceSiteFields'
import { DeviceUpkeepFields } from './DeviceUpkeepFields'
import {
  type DeviceFormValues,
  fromDevice,
  newDeviceValues,
  toDeviceBody,
  toDeviceUpdate,
} from './deviceFormValues'

export const DEVICE_DIALOG_WIDTH = 1160

type Props = {
  id: number | null
  open: boolean
  tree: AgencyNode[]
  /** The abnormal-status switches (SMS off, display off): the list's `can.abnormal_switches`. */
  abnormalSwitches: boolean
  onClose: () => void
}

/** 注册设备 / 变更设备: the device, its opening and upkeep on the left, its place and the map on the right. */
export default function DeviceModal({ id, open, tree, abnormalSwitches, onClose }: Props) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const { userInfo } = useSession()
  const { canEdit } = useAreaLevel('device')
  const [form] = Form.useForm<DeviceFormValues>()
  const detail = useDevice(open ? id : null)
  const save = useSaveDevice()
  const { send, modal } = useFormDialog(save, { open, onClose })
  const editing = id !== null
  const stored = detail.data
  const initial = editing ? stored && fromDevice(stored) : newDeviceValues(userInfo?.agency_id)
  const disabled = !canEdit

  // The data's time too: a dialog reopened right after a save first shows the cached record, and
  // must take the refetched one when it lands (unless the user has started typing).
  useFormReset(form, open && initial ? String(id) : null, detail.dataUpdatedAt)

  const submit = async () => {
    if (!canEdit) {
      message.error(t('common.noPermission'))
      return
    }
    if ((await validated(form)) === null) return
    const values = form.getFieldsValue(true) as DeviceFormValues
    const problem = deviceProblem(values, stored)
    if (problem) {
      message.error(t(problem))
      return
    }
    if (editing && stored)
      await send({ id: stored.id, body: toDeviceUpdate(values, stored, abnormalSwitches) })
    else await send({ id: null, body: toDeviceBody(values, undefined, abnormalSwitches) })
  }

  return (
    <FormModal
      {...modal}
      title={editing ? t('device.change') : t('device.register')}
      width={DEVICE_DIALOG_WIDTH}
      canSave={canEdit && Boolean(initial)}
      onOk={submit}
      testId="device-modal"
    >
      {initial ? (
        <Form form={form} layout="vertical" initialValues={initial} preserve={false} name="device">
          <Row gutter={24}>
            <Col span={13}>
              <Row gutter={16}>
                <DeviceIdentityFields
                  editing={editing}
                  disabled={disabled}
                  tree={tree}
                  manager={
                    stored?.device_manager_id
                      ? {
                          value: stored.device_manager_id,
                          label: `${stored.name ?? ''}（${stored.phone ?? ''}）`,
                        }
                      : null
                  }
                />
                <DeviceOpenFields disabled={disabled} abnormalSwitches={abnormalSwitches} />
                <DeviceUpkeepFields disabled={disabled} />
              </Row>
            </Col>
            <Col span={11}>
              <Row gutter={16}>
                <DeviceSiteFields disabled={disabled} />
              </Row>
            </Col>
          </Row>
          <FormFreshStart />
        </Form>
      ) : (
        <Spin className="modal-spin" />
      )}
    </FormModal>
  )
}
