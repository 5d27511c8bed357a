import type { AgencyNode } from '@aed/contracts/agency'
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons'
import { App, Button, Popover, Progress, Space, TreeSelect, Typography, Upload } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { downloadUrl } from '../../../lib/download'
import { agencyTreeOptions } from '../../device/components/agencyOptions'
import { useImportCabinets } from '../api/useImportCabinets'
import { useImportTemplate } from '../api/useImportTemplate'

type Props = {
  /** System organisations and general agents choose where the cabinets go; others import into their own. */
  pickAgency: boolean
  tree: AgencyNode[]
}

/** 导入: the template (from upload-info), the organisation, the upload with its progress. */
export function CabinetImportButton({ pickAgency, tree }: Props) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [open, setOpen] = useState(false)
  const [agencyId, setAgencyId] = useState<number>()
  const template = useImportTemplate(open).data?.template_url
  const importer = useImportCabinets()

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
    <Space orientation="vertical" size={12} className="cabinet-import" data-testid="cabinet-import">
      <Button
        type="link"
        icon={<DownloadOutlined />}
        disabled={!template}
        onClick={() => template && downloadUrl(template)}
        data-testid="cabinet-import-template"
      >
        {t('cabinet.import.template')}
      </Button>
      {pickAgency && (
        <Space orientation="vertical" size={4} style={{ width: '100%' }}>
          <Typography.Text type="secondary">{t('cabinet.import.agency')}</Typography.Text>
          <TreeSelect
            value={agencyId}
            onChange={setAgencyId}
            treeData={agencyTreeOptions(tree)}
            treeDefaultExpandAll
            allowClear
            showSearch={{ treeNodeFilterProp: 'title' }}
            placeholder={t('cabinet.assign.agencyRequired')}
            style={{ width: '100%' }}
            data-testid="cabinet-import-agency"
          />
        </Space>
      )}
      <Upload accept=".xlsx" showUploadList={false} beforeUpload={upload} disabled={importer.isPending}>
        <Button
          type="primary"
          icon={<UploadOutlined />}
          loading={importer.isPending}
          data-testid="cabinet-import-file"
        >
          {t('cabinet.import.choose')}
        </Button>
      </Upload>
      {importer.isPending && <Progress percent={importer.progress} size="small" />}
    </Space>
  )
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      content={content}
      title={t('cabinet.import.title')}
    >
      <Button icon={<UploadOutlined />} data-testid="cabinet-import-button">
        {t('cabinet.import.button')}
      </Button>
    </Popover>
  )
}
