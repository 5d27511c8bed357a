import { Space } from 'antd'
import type { ReactNode } from 'react'
import { ImageUpload } from './ImageUpload'

type Props = {
  id?: string
  value?: string[]
  onChange?: (urls: string[]) => void
  /** How many images the list keeps: the chooser hides once reached. */
  max: number
  disabled?: boolean
  allowSuffix?: string
  testId: string
  /** Shown under the images (a hint). */
  children?: ReactNode
}

/** A form's list of image URLs: each uploaded with ImageUpload, removed one by one, at most `max`. */
export function ImageListUpload({
  id,
  value = [],
  onChange,
  max,
  disabled,
  allowSuffix,
  testId,
  children,
}: Props) {
  return (
    <div id={id} data-testid={testId}>
      <Space wrap align="start">
        {value.map((url, i) => (
          <ImageUpload
            key={url}
            value={url}
            disabled={disabled}
            onChange={() => onChange?.(value.filter((_, j) => j !== i))}
          />
        ))}
        {value.length < max && !disabled && (
          <ImageUpload allowSuffix={allowSuffix} onChange={(url) => url && onChange?.([...value, url])} />
        )}
      </Space>
      {children}
    </div>
  )
}
