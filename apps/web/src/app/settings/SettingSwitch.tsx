import { Switch } from 'antd'
import { SettingRow } from './SettingRow'

type Props = {
  label: string
  hint?: string
  checked: boolean
  disabled?: boolean
  onChange: (checked: boolean) => void
  testId?: string
}

/** An on / off row of the settings drawer. */
export function SettingSwitch({ label, hint, checked, disabled, onChange, testId }: Props) {
  return (
    <SettingRow label={label} hint={hint}>
      <Switch size="small" checked={checked} disabled={disabled} onChange={onChange} data-testid={testId} />
    </SettingRow>
  )
}
