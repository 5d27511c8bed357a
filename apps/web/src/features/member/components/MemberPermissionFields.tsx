import type { PermissionLevel } from '@aed/contracts'
import { USER_ROWS, visibleRows } from '@aed/contracts/member-rules'
import { Col, Form } from 'antd'
import { useTranslation } from 'react-i18next'
import { PermissionRow } from './PermissionRow'

type Props = { grantable: readonly PermissionLevel[]; fallback: PermissionLevel; disabled: boolean }

/** The default permission rows: device, permission, aid-responder and system management, read only or edit. */
export function MemberPermissionFields({ grantable, fallback, disabled }: Props) {
  const { t } = useTranslation()
  const role = Form.useWatch<number | undefined>('role_type')
  const choices = [
    { value: 'READ_ONLY' as const, label: t('member.readOnly') },
    { value: 'EDIT' as const, label: t('member.editable') },
  ]
  return (
    <Col span={24}>
      <Form.Item label={t('member.permissions')} required className="permission-rows">
        {visibleRows(USER_ROWS, role, ['member']).map((area) => (
          <Form.Item key={area} name={['permissions', area]} noStyle>
            <PermissionRow
              label={t(`member.rows.${area}`)}
              choices={choices}
              grantable={grantable}
              fallback={fallback}
              disabled={disabled}
              testId={`permission-${area}`}
            />
          </Form.Item>
        ))}
      </Form.Item>
    </Col>
  )
}
