import type { AgencyNode } from '@aed/contracts/agency'
import { type ImportFeature, ImportPopover } from '../../../components/ImportPopover/ImportPopover'
import { agencyTreeOptions } from '../../../lib/agencyOptions'
import { useImportCabinets } from '../api/useImportCabinets'
import { useImportTemplate } from '../api/useImportTemplate'

type Props = { tree: AgencyNode[] }

/** The cabinet import: its template is upload-info's. */
const cabinetImport: ImportFeature = {
  useImport: useImportCabinets,
  useTemplateUrl: function useUploadInfoTemplate(enabled) {
    return useImportTemplate(enabled).data?.template_url
  },
  texts: {
    button: 'cabinet.import.button',
    title: 'cabinet.import.title',
    template: 'cabinet.import.template',
    agency: 'cabinet.import.agency',
    placeholder: 'cabinet.assign.agencyRequired',
    choose: 'cabinet.import.choose',
  },
  testId: 'cabinet-import',
  fieldTestId: 'cabinet-import',
}

/**
 * 导入: the template (from upload-info), the organisation, the upload with its progress. Those
 * who may import (system organisations and general agents) choose where the cabinets go.
 */
export function CabinetImportButton({ tree }: Props) {
  return <ImportPopover {...cabinetImport} pickAgency agencies={agencyTreeOptions(tree)} />
}
