import { CheckOutlined } from '@ant-design/icons'
import { Tooltip } from 'antd'
import { useTranslation } from 'react-i18next'
import { primaryColors } from './layoutSettings'

/** The primary-colour swatches. */
export function ColorSwatches({ value, onChange }: { value: string; onChange: (color: string) => void }) {
  const { t } = useTranslation()
  return (
    <div className="color-swatches">
      {primaryColors.map(({ key, color }) => {
        const selected = value.toLowerCase() === color.toLowerCase()
        return (
          <Tooltip key={key} title={t(`settings.colors.${key}`)}>
            <button
              type="button"
              className="color-swatch"
              style={{ background: color }}
              aria-label={t(`settings.colors.${key}`)}
              aria-pressed={selected}
              onClick={() => onChange(color)}
              data-testid={`color-${key}`}
            >
              {selected && <CheckOutlined />}
            </button>
          </Tooltip>
        )
      })}
    </div>
  )
}
