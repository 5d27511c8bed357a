import type { Envelope } from '@aed/contracts'
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons'
import type { UseMutationResult } from '@tanstack/react-query'
import {
  App,
  Button,
  Popover,
  Progress,
  Space,
  TreeSelect,
  type TreeSelectProps,
  Typography,
  Upload,
} from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { downloadUrl } from '../../lib/download'
import type { ImportFileInput } from './useImportFile'

/** What a feature brings to the import popover (module constants: its hooks never change). */
export type ImportFeature = {
  /** The feature's upload (`useImportFile`). */
  useImport: () => Pick<
    UseMutationResult<Envelope<unknown>, Error, ImportFileInput>,
    'mutate' | 'isPending'
  > & {
    progress: number
  }
  /** Where the feature's template is; asked only while the popover is open. */
  useTemplateUrl: (enabled: boolean) => string | undefined
  /** Translation keys of the texts; `placeholder` is the organisation picker's. */
  texts: {
    button: string
    title: string
    template: string
    agency: string
    placeholder: string
    choose: string
  }
  /** The popover's test id and class; its button is `${testId}-button`. */
  testId: string
  /** Prefix of the popover's fields' test ids: `${fieldTestId}-template`, `-agency`, `-file`. */
  fieldTestId: string
}

type Props = ImportFeature & {
  /** System organisations and general agents choose where the rows go; others import into their own. */
  pickAgency: boolean
  /** The organisations that may be picked, as TreeSelect options. */
  agencies: TreeSelectProps['treeData']
}

/** 导入: the template, the organisation, the upload with its progress, in a popover under its button. */
export function ImportPopover({
  pickAgency,
  agencies,
  useImport,
  useTemplateUrl,
  texts,
  testId,
  fieldTestId,
}: Props) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const importer = useImport()
  const [open, setOpen] = useState(false)
  const [agencyId, setAgencyId] = useState<number>()
  const template = useTemplateUrl(open)

  const upload = (file: File) => {
    importer.mutate(
      { file, agencyId: pickAgency ? agencyId : undefined },
      {
        onSuccess: ({ msg }) => {
          message.success(msg)
          setOpen(false)
        },
      },
    )
    return false
  }

  const content = (
    <Space orientation="vertical" size={12} className={testId} data-testid={testId}>
      <Button
        type="link"
        icon={<DownloadOutlined />}
        disabled={!template}
        onClick={() => template && downloadUrl(template)}
        data-testid={`${fieldTestId}-template`}
      >
        {t(texts.template)}
      </Button>
      {pickAgency && (
        <Space orientation="vertical" size={4} style={{ width: '100%' }}>
          <Typography.Text type="secondary">{t(texts.agency)}</Typography.Text>
          <TreeSelect
            value={agencyId}
            onChange={setAgencyId}
            treeData={agencies}
            treeDefaultExpandAll
            allowClear
            showSearch={{ treeNodeFilterProp: 'title' }}
            placeholder={t(texts.placeholder)}
            style={{ width: '100%' }}
            data-testid={`${fieldTestId}-agency`}
          />
        </Space>
      )}
      <Upload accept=".xlsx" showUploadList={false} beforeUpload={upload} disabled={importer.isPending}>
        <Button
          type="primary"
          icon={<UploadOutlined />}
          loading={importer.isPending}
          data-testid={`${fieldTestId}-file`}
        >
          {t(texts.choose)}
        </Button>
      </Upload>
      {importer.isPending && <Progress percent={importer.progress} size="small" />}
    </Space>
  )
  return (
    <Popover open={open} onOpenChange={setOpen} trigger="click" content={content} title={t(texts.title)}>
      <Button icon={<UploadOutlined />} data-testid={`${testId}-button`}>
        {t(texts.button)}
      </Button>
    </Popover>
  )
}
