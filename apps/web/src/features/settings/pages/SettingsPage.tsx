import type { AgencyNode } from '@aed/contracts/agency'
import { SaveOutlined } from '@ant-design/icons'
import { App, Button, Card, Form, Skeleton, TreeSelect } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAreaLevel } from '../../../lib/useAreaLevel'
import { useFormReset } from '../../../lib/useFormReset'
import { useSession } from '../../../lib/useSession'
import { useSubmit } from '../../../lib/useSubmit'
import { useAgencyTree } from '../../agency/api/useAgencyTree'
import { useAgencySettings } from '../api/useAgencySettings'
import { useSaveAgencySettings } from '../api/useSaveAgencySettings'
import { SettingsForm } from '../components/SettingsForm'
import { type SettingsValues, toAgencySettings, toSettingsValues } from '../settingsValues'

type TreeOption = { value: number; title: string; children: TreeOption[] }
const toTree = (nodes: readonly AgencyNode[]): TreeOption[] =>
  nodes.map((n) => ({ value: n.id, title: n.name, children: toTree(n.kids) }))

/** /systemManagement/settings: the alert preferences of the member's organisation or one below it. */
export function SettingsPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const { userInfo } = useSession()
  const { canEdit } = useAreaLevel('agency')
  const tree = useAgencyTree()
  const [agencyId, setAgencyId] = useState<number | undefined>(userInfo?.agency_id)
  const settings = useAgencySettings(agencyId)
  const save = useSaveAgencySettings()
  const send = useSubmit(save)
  const [form] = Form.useForm<SettingsValues>()

  useFormReset(form, settings.data ? String(agencyId) : null, settings.dataUpdatedAt)

  const submit = (values: SettingsValues) => {
    if (!canEdit) return message.error(t('common.noPermission'))
    return send({ agency_id: agencyId, ...toAgencySettings(values) })
  }

  return (
    <div className="page" data-testid="settings-page">
      <Card
        title={t('systemSettings.title')}
        extra={
          <TreeSelect
            className="settings-agency"
            value={agencyId}
            onChange={setAgencyId}
            treeData={toTree(tree.data ?? [])}
            treeDefaultExpandAll
            showSearch={{ treeNodeFilterProp: 'title' }}
            prefix={t('systemSettings.agency')}
            loading={tree.isPending}
            data-testid="settings-agency"
          />
        }
      >
        {settings.data ? (
          <Form
            key={agencyId ?? 'own'}
            form={form}
            className="settings-form"
            labelCol={{ flex: '180px' }}
            labelWrap
            // A basis of 0: a long help line wraps in its column instead of pushing the field under its label.
            wrapperCol={{ flex: '1 1 0' }}
            initialValues={toSettingsValues(settings.data)}
            onFinish={submit}
          >
            <SettingsForm disabled={!canEdit} />
            {canEdit && (
              <Form.Item wrapperCol={{ offset: 0 }} className="settings-actions">
                <Button
                  type="primary"
                  htmlType="submit"
                  icon={<SaveOutlined />}
                  loading={save.isPending}
                  data-testid="settings-save"
                >
                  {t('common.save')}
                </Button>
              </Form.Item>
            )}
          </Form>
        ) : (
          <Skeleton active paragraph={{ rows: 8 }} />
        )}
      </Card>
    </div>
  )
}
