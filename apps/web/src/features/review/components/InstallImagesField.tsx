import { INSTALL_IMGS_MAX, REVIEW_IMAGE_SUFFIX } from '@aed/contracts/review'
import { useTranslation } from 'react-i18next'
import { ImageListUpload } from '../../../components/ImageUpload/ImageListUpload'
import { reviewImageProblem } from './reviewImageProblem'
import { useMessageText } from './useMessageText'

type Props = {
  id?: string
  value?: string[]
  onChange?: (urls: string[]) => void
  disabled?: boolean
}

/** The site photos: each uploaded with ImageUpload, at most two, jpg/jpeg/png under 20M. */
export function InstallImagesField(props: Props) {
  const { t } = useTranslation()
  const text = useMessageText()
  const check = (file: File) => {
    const problem = reviewImageProblem(file, props.value?.length ?? 0)
    return problem && text(problem)
  }
  return (
    <ImageListUpload
      {...props}
      max={INSTALL_IMGS_MAX}
      allowSuffix={REVIEW_IMAGE_SUFFIX}
      check={check}
      testId="review-install-imgs"
    >
      <div className="review-image-hint">{t('review.uploadHint')}</div>
    </ImageListUpload>
  )
}
