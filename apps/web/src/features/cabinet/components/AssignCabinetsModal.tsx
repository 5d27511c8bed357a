import type { AgencyNode } from '@aed/contracts/agency'
import { AgencyAssignModal } from '../../../components/AgencyAssignModal/AgencyAssignModal'
import { agencyTreeOptions } from '../../../lib/agencyOptions'
import { useAssignCabinets } from '../api/useAssignCabinets'

type Props = { ids: number[] | null; tree: AgencyNode[]; onClose: () => void; onDone: () => void }

const cabinetAssign = {
  useAssign: useAssignCabinets,
  body: (agency_id: number, cabinet_ids: number[]) => ({ agency_id, cabinet_ids }),
  texts: {
    title: 'cabinet.assign.title',
    count: 'cabinet.assign.count',
    agency: 'cabinet.assign.agency',
    required: 'cabinet.assign.agencyRequired',
  },
  testId: 'cabinet-assign',
}

/** 分配: the chosen cabinets go to an organisation of the subtree. */
export default function AssignCabinetsModal({ tree, ...props }: Props) {
  return <AgencyAssignModal {...props} {...cabinetAssign} agencies={agencyTreeOptions(tree)} />
}
