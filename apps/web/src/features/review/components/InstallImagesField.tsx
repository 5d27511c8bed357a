import { INSTALL_IMGS_MAX, REVIEW_IMAGE_SUFFIX } from '@aed/contracts/review'
import { Space } from 'antd'
import { useTranslation } from 'react-i18next'
import { ImageUpload } from '../../../components/ImageUpload/ImageUpload'
import { reviewImageProblem } from './reviewImageProblem'
import { useMessageText } from './useMessageText'

type Props = {
  id?: string
  value?: string[]
  onChange?: (urls: string[]) => void
  disabled?: boolean
}

/** The site photos: each uploaded with ImageUpload, at most two, jpg/jpeg/png under 20M. */
export function InstallImagesField({ id, value = [], onChange, disabled }: Props) {
  const { t } = useTranslation()
  const text = useMessageText()
  const check = (file: File) => {
    const problem = reviewImageProblem(file, value.length)
    return problem && text(problem)
  }
  return (
    <div id={id} data-testid="review-install-imgs">
      <Space wrap align="start">
        {value.map((url, i) => (
          <ImageUpload
            key={url}
            value={url}
            disabled={disabled}
            onChange={() => onChange?.(value.filter((_, j) => j !== i))}
          />
        ))}
        {value.length < INSTALL_IMGS_MAX && !disabled && (
          <ImageUpload
            allowSuffix={REVIEW_IMAGE_SUFFIX}
            check={check}
            onChange={(url) => url && onChange?.([...value, url])}
          />
        )}
      </Space>
      <div className="review-image-hint">{t('review.uploadHint')}</div>
    </div>
  )
}
