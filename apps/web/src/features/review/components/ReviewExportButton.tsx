import { DownloadOutlined } from '@ant-design/icons'
import { Button } from 'antd'
import { useTranslation } from 'react-i18next'
import type { Filters } from '../../../components/DataTable/listParams'
import type { ReviewKind } from '../api/keys'
import { useExportReview } from '../api/useExportReview'

/** 导出 of the approved tab, with the list's filters. */
export function ReviewExportButton({ kind, filters }: { kind: ReviewKind; filters: Filters }) {
  const { t } = useTranslation()
  const exporter = useExportReview(kind)
  return (
    <Button
      icon={<DownloadOutlined />}
      loading={exporter.isPending}
      onClick={() => exporter.mutate(filters)}
      data-testid="review-export"
    >
      {t('review.export')}
    </Button>
  )
}
