import type { MapSuggestion } from '@aed/contracts/map'
import { Form, type FormInstance, InputNumber, Space } from 'antd'
import type { ReactNode } from 'react'
import { PlaceSearch } from './PlaceSearch'

type LocationProps = {
  label: string
  /** Says the address is required; also the search box's placeholder. */
  required: string
  disabled: boolean
  testId: string
  onPick: (place: MapSuggestion) => void
}

/** The form's required `location`: an address typed or found with the place search. */
export function LocationField({ label, required, disabled, testId, onPick }: LocationProps) {
  return (
    <Form.Item
      name="location"
      label={label}
      rules={[{ required: true, whitespace: true, message: required }]}
    >
      <PlaceSearch disabled={disabled} placeholder={required} testId={testId} onPick={onPick} />
    </Form.Item>
  )
}

type CoordinateProps = {
  disabled: boolean
  placeholders: { lat: string; lon: string }
  /** Each input's share of the row, the rest left to `children`. */
  width: string
  /** Test ids are `${testId}-lat` and `${testId}-lon`. */
  testId: string
  onBlur?: () => void
  className?: string
  children?: ReactNode
}

/** The form's `lat` and `lon` side by side, to the sixth decimal (about 0.1 m). */
export function CoordinateInputs({
  placeholders,
  width,
  testId,
  className,
  children,
  ...input
}: CoordinateProps) {
  const axis = (name: 'lat' | 'lon', limit: number) => (
    <Form.Item name={name} noStyle>
      <InputNumber
        min={-limit}
        max={limit}
        step={0.000001}
        placeholder={placeholders[name]}
        style={{ width }}
        data-testid={`${testId}-${name}`}
        {...input}
      />
    </Form.Item>
  )
  return (
    <Space.Compact block className={className}>
      {axis('lat', 90)}
      {axis('lon', 180)}
      {children}
    </Space.Compact>
  )
}

/** The point the form's `lat` and `lon` hold, or null while either is missing. */
export function useWatchedPoint(form: FormInstance) {
  const lat = Form.useWatch('lat', form)
  const lon = Form.useWatch('lon', form)
  return typeof lat === 'number' && typeof lon === 'number' ? { lat, lon } : null
}
