// The device gateway's way to the commands waiting for a device (AED or cabinet): which are
// waiting, one claimed once, and the protocol's form of each. The console side of commands
// (issue, list, expire) is device-command.service.ts and device.jobs.ts.
export {
  type CommandRecord,
  claimCommand,
  takeWaiting,
  toDeviceCommand,
} from './device-command.repository.ts'
