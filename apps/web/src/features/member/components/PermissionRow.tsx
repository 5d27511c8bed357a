import type { PermissionLevel } from '@aed/contracts'
import { Checkbox, Radio } from 'antd'
import { useState } from 'react'

export type LevelChoice = { value: PermissionLevel; label: string }

type Props = {
  label: string
  /** The area's level, or null when not granted. */
  value?: PermissionLevel | null
  onChange?: (value: PermissionLevel | null) => void
  choices: LevelChoice[]
  /** Levels the signed-in member may grant; others are shown disabled. */
  grantable: readonly PermissionLevel[]
  /** The level a checked row starts with. */
  fallback: PermissionLevel
  disabled?: boolean
  testId: string
}

/** One permission area: a check box grants it, the radio chooses the level. */
export function PermissionRow({
  label,
  value,
  onChange,
  choices,
  grantable,
  fallback,
  disabled,
  testId,
}: Props) {
  const [level, setLevel] = useState<PermissionLevel>(value ?? fallback)
  const checked = value !== null && value !== undefined
  // ALL shows as the highest choice until the level is changed.
  const shown = checked ? (choices.some((c) => c.value === value) ? value : choices.at(-1)?.value) : level
  const noneGrantable = !choices.some((c) => grantable.includes(c.value))

  return (
    <div className="permission-row" data-testid={testId}>
      <Checkbox
        checked={checked}
        disabled={disabled || noneGrantable}
        onChange={(e) =>
          onChange?.(e.target.checked ? (grantable.includes(level) ? level : choices[0].value) : null)
        }
      >
        {label}
      </Checkbox>
      <Radio.Group
        value={shown}
        disabled={disabled || !checked}
        onChange={(e) => {
          setLevel(e.target.value)
          onChange?.(e.target.value)
        }}
        options={choices.map((c) => ({
          value: c.value,
          label: c.label,
          disabled: !grantable.includes(c.value),
        }))}
      />
    </div>
  )
}
