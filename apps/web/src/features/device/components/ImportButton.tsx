import type { AgencyNode } from '@aed/contracts/agency'
import { type ImportFeature, ImportPopover } from '../../../components/ImportPopover/ImportPopover'
import { agencyTreeOptions } from '../../../lib/agencyOptions'
import { useDataDict } from '../../system/api/useDataDict'
import { useImportDevices } from '../api/useImportDevices'

type Props = { tree: AgencyNode[] }

/** The factory import: its template is the data dictionary's. */
const factoryImport: ImportFeature = {
  useImport: useImportDevices,
  useTemplateUrl: function useDictTemplate(enabled) {
    return useDataDict(enabled).data?.device_import_template
  },
  texts: {
    button: 'device.factory.import',
    title: 'device.factory.importTitle',
    template: 'device.factory.importTemplate',
    agency: 'device.factory.importAgency',
    placeholder: 'device.required.agency',
    choose: 'device.factory.importChoose',
  },
  testId: 'factory-import',
  fieldTestId: 'import',
}

/**
 * 导入: the template from the data dictionary, the organisation, the upload with its progress.
 * Those who may import (system organisations and general agents) choose where the devices go.
 */
export function ImportButton({ tree }: Props) {
  return <ImportPopover {...factoryImport} pickAgency agencies={agencyTreeOptions(tree)} />
}
