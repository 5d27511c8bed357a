import { CABINET_CONSOLE_COMMANDS, type Cabinet } from '@aed/contracts/cabinet'
import { Drawer } from 'antd'
import { useTranslation } from 'react-i18next'
import { CommandsPanel } from '../../../components/CommandsPanel/CommandsPanel'
import { useCabinetCommands, useSendCabinetCommand } from '../api/useCabinetCommands'

/** 远程指令 of a cabinet: unlock and siren for those the server allows (`can.command`), and the answers. */
export default function CommandsDrawer({
  cabinet,
  onClose,
}: {
  cabinet: Cabinet | null
  onClose: () => void
}) {
  const { t } = useTranslation()
  const id = cabinet?.id ?? null
  return (
    <Drawer
      open={cabinet !== null}
      onClose={onClose}
      width={720}
      title={`${t('cabinet.actions.commands')} ${cabinet?.cabinet_sn ?? ''}`}
      destroyOnHidden
      data-testid="cabinet-commands"
    >
      <CommandsPanel
        names={CABINET_CONSOLE_COMMANDS}
        rows={useCabinetCommands(id)}
        send={useSendCabinetCommand(id)}
        canSend={cabinet?.can.command ?? false}
      />
    </Drawer>
  )
}
