import { PASSWORD_RULE } from '@aed/contracts'
import type { AgencyNode } from '@aed/contracts/agency'
import { DatePicker, Input, Radio, Select, TreeSelect } from 'antd'
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import { FieldCol } from '../../../components/FieldCol/FieldCol'
import { useDict } from '../../../lib/useDict'
import { useNationalities } from '../api/useNationalities'

type Props = {
  editing: boolean
  disabled: boolean
  roles: { values: number[]; locked: boolean }
  tree: AgencyNode[]
  /** Called with an 11-digit phone typed into a new user's dialog. */
  onPhone: (phone: string) => void
}

/** The person's free-text fields, alike but for their length. */
const TEXTS = [
  { name: 'name', max: 50 },
  { name: 'email', max: 100 },
] as const

type TreeOption = { value: number; title: string; children: TreeOption[] }
const toTree = (nodes: readonly AgencyNode[]): TreeOption[] =>
  nodes.map((n) => ({ value: n.id, title: n.name, children: toTree(n.kids) }))

/** Person, organisation and role fields of the user dialog. */
export function MemberAccountFields({ editing, disabled, roles, tree, onPhone }: Props) {
  const { t, i18n } = useTranslation()
  const nationalities = useNationalities()
  const dict = useDict()
  const zh = i18n.language !== 'en-US'
  return (
    <>
      <FieldCol span={8} name="phone" label={t('member.phone')} required={t('member.phoneRequired')}>
        <Input
          maxLength={11}
          disabled={disabled || editing}
          placeholder={t('member.phoneRequired')}
          onChange={(e) => {
            const phone = e.target.value.replace(/\s+/g, '')
            if (/^\d{11}$/.test(phone)) onPhone(phone)
          }}
          data-testid="member-phone"
        />
      </FieldCol>
      {TEXTS.map(({ name, max }) => (
        <FieldCol
          key={name}
          span={8}
          name={name}
          label={t(`member.${name}`)}
          required={t(`member.${name}Required`)}
          whitespace
        >
          <Input
            maxLength={max}
            disabled={disabled}
            placeholder={t(`member.${name}Required`)}
            data-testid={`member-${name}`}
          />
        </FieldCol>
      ))}
      <FieldCol
        span={8}
        name="nationality"
        label={t('member.nationality')}
        required={t('member.nationalityRequired')}
      >
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          loading={nationalities.isPending}
          disabled={disabled}
          placeholder={t('member.nationalityRequired')}
          options={(nationalities.data ?? []).map((n) => ({ value: n.id, label: zh ? n.zh : n.en }))}
          data-testid="member-nationality"
        />
      </FieldCol>
      <FieldCol span={8} name="gender" label={t('member.gender')}>
        <Radio.Group disabled={disabled} options={dict.options('gender')} />
      </FieldCol>
      <FieldCol span={8} name="birth" label={t('member.birth')}>
        <DatePicker
          disabled={disabled}
          style={{ width: '100%' }}
          disabledDate={(d) => d.isAfter(dayjs(), 'day')}
        />
      </FieldCol>
      <FieldCol span={8} name="agency_id" label={t('member.agency')} required={t('member.agencyRequired')}>
        <TreeSelect
          treeData={toTree(tree)}
          treeDefaultExpandAll
          showSearch={{ treeNodeFilterProp: 'title' }}
          disabled={disabled || editing}
          placeholder={t('member.agencyRequired')}
          data-testid="member-agency"
        />
      </FieldCol>
      <FieldCol span={8} name="role_type" label={t('member.role')} required={t('member.roleRequired')}>
        <Select
          disabled={disabled || roles.locked}
          placeholder={t('member.roleRequired')}
          options={dict.options('role_type', roles.values)}
          data-testid="member-role"
        />
      </FieldCol>
      {!editing && (
        <FieldCol
          span={8}
          name="password"
          label={t('member.password')}
          tooltip={t('member.passwordHint')}
          rules={[{ pattern: PASSWORD_RULE, message: t('password.rule') }]}
        >
          <Input.Password
            disabled={disabled}
            autoComplete="new-password"
            placeholder={t('member.passwordHint')}
            data-testid="member-password"
          />
        </FieldCol>
      )}
    </>
  )
}
