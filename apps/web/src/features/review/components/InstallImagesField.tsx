import { INSTALL_IMGS_MAX, REVIEW_IMAGE_SUFFIX } from '@aed/contracts/review'
import { useTranslation } from 'react-i18next'
import { ImageListUpload } from '../../../components/ImageUpload/ImageListUpload'

type Props = {
  id?: string
  value?: string[]
  onChange?: (urls: string[]) => void
  disabled?: boolean
}

/** The site photos: at most two, each a jpg/jpeg/png under 20M (ImageUpload refuses the rest). */
export function InstallImagesField(props: Props) {
  const { t } = useTranslation()
  return (
    <ImageListUpload
      {...props}
      max={INSTALL_IMGS_MAX}
      allowSuffix={REVIEW_IMAGE_SUFFIX}
      testId="review-install-imgs"
    >
      <div className="review-image-hint">{t('review.uploadHint')}</div>
    </ImageListUpload>
  )
}
