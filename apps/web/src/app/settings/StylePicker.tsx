import { CheckOutlined } from '@ant-design/icons'
import { Tooltip } from 'antd'

type Option<T extends string> = { value: T; label: string; preview: string }

type Props<T extends string> = {
  value: T
  options: Option<T>[]
  onChange: (value: T) => void
  testId: string
}

/** Thumbnail choices (menu theme, navigation mode) as in Ant Design Pro's drawer. */
export function StylePicker<T extends string>({ value, options, onChange, testId }: Props<T>) {
  return (
    <div className="style-picker">
      {options.map((o) => (
        <Tooltip key={o.value} title={o.label}>
          <button
            type="button"
            aria-label={o.label}
            aria-pressed={value === o.value}
            className={`style-thumb style-thumb-${o.preview}`}
            onClick={() => onChange(o.value)}
            data-testid={`${testId}-${o.value}`}
          >
            {value === o.value && <CheckOutlined className="style-thumb-check" />}
          </button>
        </Tooltip>
      ))}
    </div>
  )
}
