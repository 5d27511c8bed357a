import type { AgencyNode } from '@aed/contracts/agency'
import { AgencyAssignModal } from '../../../components/AgencyAssignModal/AgencyAssignModal'
import { agencyTreeOptions } from '../../../lib/agencyOptions'
import { useAssignDevices } from '../api/useAssignDevices'

type Props = { ids: number[] | null; tree: AgencyNode[]; onClose: () => void; onDone: () => void }

const deviceAssign = {
  useAssign: useAssignDevices,
  body: (agency_id: number, device_ids: number[]) => ({ agency_id, device_ids }),
  texts: {
    title: 'device.factory.assignTitle',
    count: 'device.factory.assignCount',
    agency: 'device.factory.assignAgency',
    required: 'device.required.agency',
  },
  testId: 'assign',
}

/** 分配设备: the chosen factory devices go to an organisation of the subtree. */
export default function AssignModal({ tree, ...props }: Props) {
  return <AgencyAssignModal {...props} {...deviceAssign} agencies={agencyTreeOptions(tree)} />
}
