import {
  CLASSROOM_DESCRIBE_MAX,
  CLASSROOM_TITLE_MAX,
  ClassroomCategory,
  ClassroomContentType,
} from '@aed/contracts/classroom'
import { Form, Input, Radio, Select } from 'antd'
import { useTranslation } from 'react-i18next'
import { ImageUpload } from '../../../components/ImageUpload/ImageUpload'
import { RichTextEditor } from '../../../components/RichTextEditor/RichTextEditor'
import { useDict } from '../../../lib/useDict'
import { type ClassroomValues, titleLength } from '../classroomRules'

const HTTP_URL = /^https?:\/\/\S+$/i

/** The classroom dialog's fields: a video needs a video ID; other items a cover, link, summary and optional rich text. */
export function ClassroomFields({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation()
  const dict = useDict()
  const category = Form.useWatch<ClassroomValues['category']>('category')
  const contentType = Form.useWatch<ClassroomValues['content_type']>('content_type')
  const video = category === ClassroomCategory.VIDEO
  const titleRule = {
    validator: (_: unknown, v?: string) =>
      v && titleLength(v.trim()) > CLASSROOM_TITLE_MAX
        ? Promise.reject(new Error(t('classroom.titleTooLong')))
        : Promise.resolve(),
  }

  return (
    <>
      <Form.Item
        name="category"
        label={t('classroom.category')}
        rules={[{ required: true, message: t('classroom.typeRequired') }]}
      >
        <Select
          disabled={disabled}
          placeholder={t('filter.choose')}
          options={dict.options('classroom_category')}
          data-testid="classroom-category"
        />
      </Form.Item>
      <Form.Item
        name="title"
        label={t('classroom.title')}
        rules={[{ required: true, whitespace: true, message: t('classroom.titleRequired') }, titleRule]}
      >
        <Input
          disabled={disabled}
          showCount={{ formatter: ({ value }) => `${titleLength(value)} / ${CLASSROOM_TITLE_MAX}` }}
          placeholder={t('classroom.titlePlaceholder')}
          data-testid="classroom-title"
        />
      </Form.Item>
      {!video && (
        <Form.Item
          name="illustration"
          label={t('classroom.cover')}
          rules={[{ required: true, message: t('classroom.coverRequired') }]}
          extra={t('classroom.coverHint')}
        >
          <ImageUpload disabled={disabled} />
        </Form.Item>
      )}
      <Form.Item
        name="link"
        label={video ? t('classroom.videoId') : t('classroom.link')}
        rules={[
          { required: true, whitespace: true, message: t('classroom.linkRequired') },
          ...(video ? [] : [{ pattern: HTTP_URL, message: t('classroom.linkInvalid') }]),
        ]}
      >
        <Input
          disabled={disabled}
          placeholder={video ? t('classroom.videoIdPlaceholder') : 'https://'}
          data-testid="classroom-link"
        />
      </Form.Item>
      {!video && (
        <>
          <Form.Item
            name="describe"
            label={t('classroom.describe')}
            rules={[{ required: true, whitespace: true, message: t('classroom.describeRequired') }]}
          >
            <Input.TextArea
              disabled={disabled}
              rows={3}
              maxLength={CLASSROOM_DESCRIBE_MAX}
              showCount
              data-testid="classroom-describe"
            />
          </Form.Item>
          <Form.Item name="content_type" label={t('classroom.contentType')}>
            <Radio.Group
              disabled={disabled}
              options={dict.options('classroom_content_type', [
                ClassroomContentType.LINK,
                ClassroomContentType.RICH_TEXT,
              ])}
            />
          </Form.Item>
          {contentType === ClassroomContentType.RICH_TEXT && (
            <Form.Item name="content" label={t('classroom.content')}>
              <RichTextEditor disabled={disabled} placeholder={t('classroom.contentPlaceholder')} />
            </Form.Item>
          )}
        </>
      )}
    </>
  )
}
