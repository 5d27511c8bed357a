import { IMAGE_ALLOW_SUFFIX, imageProblem } from '@aed/contracts/files'
import { DeleteOutlined, LoadingOutlined, PlusOutlined } from '@ant-design/icons'
import { App, Button, Image, Upload } from 'antd'
import { useTranslation } from 'react-i18next'
import { useMessageText } from '../../lib/useMessageText'
import { useUploadFile } from './useUploadFile'

type Props = {
  id?: string
  /** The uploaded file's URL. */
  value?: string | null
  onChange?: (url: string | null) => void
  disabled?: boolean
  allowSuffix?: string
  /** A further check after the image rule: the text of why the file is refused (shown as an error), or null. */
  check?: (file: File) => string | null
}

/**
 * One image: uploads on choice and keeps the server's access_url. Before sending, anything but a
 * jpg, jpeg or png, or over 20M, is refused in the spec's words (the server refuses them alike),
 * then `check` may refuse too.
 */
export function ImageUpload({
  id,
  value,
  onChange,
  disabled,
  allowSuffix = IMAGE_ALLOW_SUFFIX,
  check,
}: Props) {
  const { t } = useTranslation()
  const text = useMessageText()
  const { message } = App.useApp()
  const upload = useUploadFile(allowSuffix)
  const accept = allowSuffix
    .split(',')
    .map((s) => `.${s.trim()}`)
    .join(',')

  if (value)
    return (
      <div className="image-upload-preview" id={id}>
        <Image src={value} width={160} height={100} className="image-upload-img" alt="" />
        {!disabled && (
          <Button
            size="small"
            icon={<DeleteOutlined />}
            onClick={() => onChange?.(null)}
            aria-label={t('upload.remove')}
          >
            {t('upload.remove')}
          </Button>
        )}
      </div>
    )
  return (
    <Upload
      id={id}
      listType="picture-card"
      accept={accept}
      showUploadList={false}
      disabled={disabled || upload.isPending}
      beforeUpload={(file) => {
        const problem = imageProblem(file)
        const refused = problem ? text(problem) : check?.(file)
        if (refused) {
          message.error(refused)
          return false
        }
        upload.mutate(file, { onSuccess: (r) => onChange?.(r.access_url) })
        return false
      }}
      data-testid="image-upload"
    >
      <div className="image-upload-button">
        {upload.isPending ? <LoadingOutlined /> : <PlusOutlined />}
        <div>{t('upload.choose')}</div>
      </div>
    </Upload>
  )
}
