import { INSPECTION_IMGS_MAX } from '@aed/contracts/device-detail'
import { ImageListUpload } from '../../../components/ImageUpload/ImageListUpload'

type Props = {
  id?: string
  value?: string[]
  onChange?: (urls: string[]) => void
}

/** An inspection's photos: each uploaded with ImageUpload (POST /api/v1/system/file/), at most two. */
export function InspectionPhotosField(props: Props) {
  return <ImageListUpload {...props} max={INSPECTION_IMGS_MAX} testId="inspection-photos" />
}
