import type { SysConfig } from '@aed/contracts/review'
import { Button, Card, Form, Radio, Spin } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'
import { useFormReset } from '../../../lib/useFormReset'
import { useMessageText } from '../../../lib/useMessageText'
import { useSubmit } from '../../../lib/useSubmit'
import { useSaveSysConfig } from '../api/useSaveSysConfig'
import { useSysConfig } from '../api/useSysConfig'
import '../review.css'

const SWITCHES = [
  { name: 'call_event_notify_aid_volunteer', label: 'review.config.notifyVolunteer' },
  { name: 'xcx_display_third_party_aed', label: 'review.config.showThirdParty' },
] as const

/** /backendManagement/sysConfig, 后台配置: the two yes/no switches; 保存 only with can.edit. */
export function SysConfigPage() {
  const { t } = useTranslation()
  const text = useMessageText()
  const [form] = Form.useForm<SysConfig>()
  const config = useSysConfig()
  const save = useSaveSysConfig()
  const submit = useSubmit(save, { success: text('SAVE_OK') })
  const data = config.data
  const canEdit = data?.can.edit ?? false
  useFormReset(form, data ? 'config' : null, config.dataUpdatedAt)

  return (
    <div className="page" data-testid="sys-config-page">
      <Card title={t('review.sysConfig')}>
        {data ? (
          <Form
            form={form}
            layout="horizontal"
            labelCol={{ flex: '220px' }}
            initialValues={{
              call_event_notify_aid_volunteer: data.call_event_notify_aid_volunteer,
              xcx_display_third_party_aed: data.xcx_display_third_party_aed,
            }}
            disabled={!canEdit}
            onFinish={(values) => void submit(values)}
            name="sys-config"
          >
            {SWITCHES.map((s) => (
              <Form.Item key={s.name} name={s.name} label={t(s.label)}>
                <Radio.Group data-testid={`sys-config-${s.name}`}>
                  <Radio value={1}>{t('review.yes')}</Radio>
                  <Radio value={0}>{t('review.no')}</Radio>
                </Radio.Group>
              </Form.Item>
            ))}
            {canEdit && (
              <Form.Item label=" " colon={false}>
                <Button
                  type="primary"
                  htmlType="submit"
                  loading={save.isPending}
                  data-testid="sys-config-save"
                >
                  {t('review.config.save')}
                </Button>
              </Form.Item>
            )}
            {data.updator && data.update_time && (
              <div className="review-config-updated">
                {t('review.config.updated', { name: data.updator, time: formatDateTime(data.update_time) })}
              </div>
            )}
          </Form>
        ) : (
          <Spin />
        )}
      </Card>
    </div>
  )
}
