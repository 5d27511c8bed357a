import { INSPECTION_IMGS_MAX } from '@aed/contracts/device-detail'
import { Space } from 'antd'
import { ImageUpload } from '../../../components/ImageUpload/ImageUpload'

type Props = {
  id?: string
  value?: string[]
  onChange?: (urls: string[]) => void
}

/** An inspection's photos: each uploaded with ImageUpload (POST /api/v1/system/file/), at most two. */
export function InspectionPhotosField({ id, value = [], onChange }: Props) {
  return (
    <div id={id} data-testid="inspection-photos">
      <Space wrap align="start">
        {value.map((url, i) => (
          <ImageUpload key={url} value={url} onChange={() => onChange?.(value.filter((_, j) => j !== i))} />
        ))}
        {value.length < INSPECTION_IMGS_MAX && (
          <ImageUpload onChange={(url) => url && onChange?.([...value, url])} />
        )}
      </Space>
    </div>
  )
}
