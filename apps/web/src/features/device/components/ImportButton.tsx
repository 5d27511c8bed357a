import type { AgencyNode } from '@aed/contracts/agency'
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons'
import { App, Button, Popover, Progress, Space, TreeSelect, Typography, Upload } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { downloadUrl } from '../../../lib/download'
import { useDataDict } from '../../system/api/useDataDict'
import { useImportDevices } from '../api/useImportDevices'
import { agencyTreeOptions } from './agencyOptions'

type Props = {
  /** System organisations and general agents choose where the devices go; others import into their own. */
  pickAgency: boolean
  tree: AgencyNode[]
}

/** 导入: the template from the data dictionary, the organisation, the upload with its progress. */
export function ImportButton({ pickAgency, tree }: Props) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [open, setOpen] = useState(false)
  const [agencyId, setAgencyId] = useState<number>()
  const dict = useDataDict(open)
  const importer = useImportDevices()
  const template = dict.data?.device_import_template

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
    <Space orientation="vertical" size={12} className="factory-import" data-testid="factory-import">
      <Button
        type="link"
        icon={<DownloadOutlined />}
        disabled={!template}
        onClick={() => template && downloadUrl(template)}
        data-testid="import-template"
      >
        {t('device.factory.importTemplate')}
      </Button>
      {pickAgency && (
        <Space orientation="vertical" size={4} style={{ width: '100%' }}>
          <Typography.Text type="secondary">{t('device.factory.importAgency')}</Typography.Text>
          <TreeSelect
            value={agencyId}
            onChange={setAgencyId}
            treeData={agencyTreeOptions(tree)}
            treeDefaultExpandAll
            allowClear
            showSearch={{ treeNodeFilterProp: 'title' }}
            placeholder={t('device.required.agency')}
            style={{ width: '100%' }}
            data-testid="import-agency"
          />
        </Space>
      )}
      <Upload accept=".xlsx" showUploadList={false} beforeUpload={upload} disabled={importer.isPending}>
        <Button
          type="primary"
          icon={<UploadOutlined />}
          loading={importer.isPending}
          data-testid="import-file"
        >
          {t('device.factory.importChoose')}
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
      title={t('device.factory.importTitle')}
    >
      <Button icon={<UploadOutlined />} data-testid="factory-import-button">
        {t('device.factory.import')}
      </Button>
    </Popover>
  )
}
