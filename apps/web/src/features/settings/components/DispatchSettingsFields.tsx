import { DISPATCH_DEFAULTS } from '@aed/contracts/dispatch'
import { Form, InputNumber, Switch } from 'antd'
import { useTranslation } from 'react-i18next'
import { DISPATCH_RANGES, radiiValid } from './dispatchRanges'
import { RadiiInput } from './RadiiInput'

type NumberKey = Exclude<keyof typeof DISPATCH_RANGES, 'dispatch_radii_m'>

/** Each numeric field: its text key, and whether its unit follows the number (the others carry it in the label). */
const NUMBERS: readonly { name: NumberKey; key: string; people?: boolean; decimal?: boolean }[] = [
  { name: 'dispatch_first_wave', key: 'dispatchFirstWave', people: true },
  { name: 'dispatch_phase_s', key: 'dispatchPhase' },
  { name: 'dispatch_max', key: 'dispatchMax', people: true },
  { name: 'dispatch_answer_s', key: 'dispatchAnswer' },
  { name: 'dispatch_enough', key: 'dispatchEnough', people: true },
  { name: 'dispatch_patient_pct', key: 'dispatchPatientPct' },
  { name: 'dispatch_aed_detour_m', key: 'dispatchAedDetour' },
  { name: 'dispatch_speed_mps', key: 'dispatchSpeed', decimal: true },
]

const testId = (name: string) => `settings-${name.replace(/_/g, '-')}`

/**
 * 派单: who is alerted first, how far and how fast the search widens, when enough have accepted,
 * who fetches an AED; each with its published default and why in the help line.
 */
export function DispatchSettingsFields({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation()
  const numberField = ({ name, key, people, decimal }: (typeof NUMBERS)[number]) => {
    const range = DISPATCH_RANGES[name]
    const message = t(decimal ? 'systemSettings.rangeNumber' : 'systemSettings.rangeInt', range)
    return (
      <Form.Item
        key={name}
        name={name}
        label={t(`systemSettings.${key}`)}
        extra={t(`systemSettings.${key}Hint`, { value: DISPATCH_DEFAULTS[name] })}
        rules={[
          { required: true, message },
          { type: decimal ? 'number' : 'integer', ...range, message },
        ]}
      >
        <InputNumber
          disabled={disabled}
          {...range}
          precision={decimal ? 1 : 0}
          step={decimal ? 0.1 : 1}
          suffix={people ? t('systemSettings.people') : undefined}
          style={{ width: 240 }}
          data-testid={testId(name)}
        />
      </Form.Item>
    )
  }
  const toggle = (name: 'dispatch_on_rescue' | 'dispatch_cabinet_siren', key: string) => (
    <Form.Item
      name={name}
      label={t(`systemSettings.${key}`)}
      extra={t(`systemSettings.${key}Hint`)}
      valuePropName="checked"
      getValueProps={(v: number) => ({ checked: v === 1 })}
      normalize={(checked: boolean) => (checked ? 1 : 0)}
    >
      <Switch disabled={disabled} data-testid={testId(name)} />
    </Form.Item>
  )
  const radii = DISPATCH_RANGES.dispatch_radii_m
  return (
    <>
      {numberField(NUMBERS[0])}
      <Form.Item
        name="dispatch_radii_m"
        label={t('systemSettings.dispatchRadii')}
        extra={t('systemSettings.dispatchRadiiHint', {
          value: DISPATCH_DEFAULTS.dispatch_radii_m.join(t('systemSettings.listSep')),
        })}
        rules={[
          {
            validator: (_, v?: (number | null)[]) =>
              radiiValid(v)
                ? Promise.resolve()
                : Promise.reject(new Error(t('systemSettings.dispatchRadiiRange', radii))),
          },
        ]}
      >
        <RadiiInput disabled={disabled} />
      </Form.Item>
      {NUMBERS.slice(1).map(numberField)}
      {toggle('dispatch_on_rescue', 'dispatchOnRescue')}
      {toggle('dispatch_cabinet_siren', 'dispatchCabinetSiren')}
    </>
  )
}
