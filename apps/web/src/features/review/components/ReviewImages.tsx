import { Image, Space } from 'antd'
import { useTranslation } from 'react-i18next'

type Props = { urls: readonly string[]; size?: number; testId?: string }

/** Thumbnails; a click opens the full-size overlay, where the others of the group can be browsed. */
export function ReviewImages({ urls, size = 48, testId }: Props) {
  const { t } = useTranslation()
  if (urls.length === 0) return <>{t('table.empty')}</>
  return (
    <span data-testid={testId}>
      <Image.PreviewGroup>
        <Space size={4}>
          {urls.map((url) => (
            <Image key={url} src={url} width={size} height={size} className="review-thumb" alt="" />
          ))}
        </Space>
      </Image.PreviewGroup>
    </span>
  )
}
