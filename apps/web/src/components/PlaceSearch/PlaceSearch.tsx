import type { MapSuggestion } from '@aed/contracts/map'
import { EnvironmentOutlined } from '@ant-design/icons'
import { AutoComplete, Input } from 'antd'
import { useTranslation } from 'react-i18next'
import { usePlaceSuggestions } from './usePlaceSuggestions'

type Props = {
  id?: string
  value?: string
  onChange?: (text: string) => void
  /** A suggestion was chosen: its region code and, when known, its coordinates. */
  onPick?: (place: MapSuggestion) => void
  placeholder?: string
  disabled?: boolean
  testId?: string
}

/** An address input that offers matching places from the map service as the user types. */
export function PlaceSearch({ id, value = '', onChange, onPick, placeholder, disabled, testId }: Props) {
  const { t } = useTranslation()
  const suggestions = usePlaceSuggestions(value)
  const places = suggestions.data ?? []
  return (
    <AutoComplete
      id={id}
      value={value}
      disabled={disabled}
      onChange={(text: string) => onChange?.(text)}
      onSelect={(key: string) => {
        const place = places[Number(key)]
        if (!place) return
        onChange?.(place.address || place.title)
        onPick?.(place)
      }}
      options={places.map((p, i) => ({
        value: String(i),
        label: (
          <div className="place-option">
            <div>{p.title}</div>
            <div className="place-option-address">{p.address}</div>
          </div>
        ),
      }))}
      popupMatchSelectWidth={false}
      data-testid={testId}
    >
      <Input
        prefix={<EnvironmentOutlined />}
        placeholder={placeholder ?? t('place.placeholder')}
        allowClear
      />
    </AutoComplete>
  )
}
