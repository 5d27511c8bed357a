import type { Duplicate } from '@aed/contracts/review'
import { WarningOutlined } from '@ant-design/icons'
import { Tag } from 'antd'
import { useTranslation } from 'react-i18next'

type Props = { duplicates: readonly Duplicate[]; onOpen: () => void; testId: string }

/** 疑似重复 with the count, for a submission that looks like records we hold; a click compares them. */
export function DuplicateTag({ duplicates, onOpen, testId }: Props) {
  const { t } = useTranslation()
  if (duplicates.length === 0) return null
  return (
    <Tag
      color="warning"
      icon={<WarningOutlined />}
      className="review-duplicate-tag"
      onClick={(e) => {
        e.stopPropagation()
        onOpen()
      }}
      data-testid={testId}
    >
      {t('review.duplicate.tag', { count: duplicates.length })}
    </Tag>
  )
}
