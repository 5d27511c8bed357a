import type { AgencyNode } from '@aed/contracts/agency'
import { type ImportFeature, ImportPopover } from '../../../components/ImportPopover/ImportPopover'
import { agencyTreeOptions } from '../../../lib/agencyOptions'
import { useImportResponders } from '../api/useImportResponders'
import { useImportTemplate } from '../api/useImportTemplate'

/** The responder import: its template is upload-info's. */
const responderImport: ImportFeature = {
  useImport: useImportResponders,
  useTemplateUrl: function useUploadInfoTemplate(enabled) {
    return useImportTemplate(enabled).data?.template_url
  },
  texts: {
    button: 'responder.import.button',
    title: 'responder.import.title',
    template: 'responder.import.template',
    agency: 'responder.import.agency',
    placeholder: 'responder.required.agency',
    choose: 'responder.import.choose',
  },
  testId: 'responder-import',
  fieldTestId: 'responder-import',
}

type Props = { tree: AgencyNode[]; pickAgency: boolean }

/**
 * 导入: the template, the upload with its progress; system organisations and general agents choose
 * the organisation the responders go to, others import into their own.
 */
export function ResponderImportButton({ tree, pickAgency }: Props) {
  return <ImportPopover {...responderImport} pickAgency={pickAgency} agencies={agencyTreeOptions(tree)} />
}
