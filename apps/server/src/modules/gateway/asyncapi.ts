import {
  AED_TYPES,
  CABINET_TYPES,
  deviceCommandSchema,
  envelopeSchema,
  MESSAGE_TYPES,
  type MessageType,
  messageData,
  PROTOCOL_VERSION,
  publishResultSchema,
} from '@aed/contracts/device-protocol'
import { z } from 'zod'

// The device protocol as an AsyncAPI 3.0 document (served at GET /device-api/docs), built from
// the same zod schemas that check every message and that docs/device-protocol.md's tables come
// from. It describes one device: what it sends on its up topics, what it receives on its down
// topics. The HTTPS calls are in the OpenAPI document (/api/docs); the rules (signing, order,
// stale, commands) are in docs/device-protocol.md.

/**
 * Where devices reach the platform's own broker: the host they asked this document from, and its
 * ports (no TLS port when TLS is off). Null with an external broker (its address is the
 * operator's, not one the server knows) or no broker.
 */
export type AsyncApiServers = { host: string; port: number; tlsPort: number | null } | null

type Schema = Record<string, unknown>

const jsonSchema = (s: z.ZodType): Schema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, {
    io: 'input',
    target: 'draft-7',
    unrepresentable: 'any',
  }) as Schema
  return rest
}

function servers(s: AsyncApiServers): Record<string, Schema> {
  if (!s) return {}
  const security = [{ $ref: '#/components/securitySchemes/devicePassword' }]
  const out: Record<string, Schema> = {}
  if (s.tlsPort) {
    out.mqtts = {
      host: `${s.host}:${s.tlsPort}`,
      protocol: 'secure-mqtt',
      protocolVersion: '3.1.1',
      description:
        'MQTT over TLS (recommended). A generated certificate is self-signed: pin the SHA-256 fingerprint the server prints at start',
      security,
    }
  }
  out.mqtt = {
    host: `${s.host}:${s.port}`,
    protocol: 'mqtt',
    protocolVersion: '3.1.1',
    description: 'MQTT without TLS: private networks only',
    security,
  }
  return out
}

const serialParameter = { serial: { description: 'The device serial (device_sn or cabinet_sn)' } }
const qos1 = { mqtt: { qos: 1, retain: false, bindingVersion: '0.2.0' } }

function senders(type: MessageType): string {
  const from = [
    AED_TYPES.includes(type) ? 'AEDs' : null,
    CABINET_TYPES.includes(type) ? 'rescue cabinets' : null,
  ]
  return `Sent by ${from.filter(Boolean).join(' and ')}.`
}

/** The AsyncAPI 3.0 document of the device protocol. */
export function asyncApiDocument(s: AsyncApiServers): Schema {
  const channels: Record<string, Schema> = {}
  const operations: Record<string, Schema> = {}
  const messages: Record<string, Schema> = {}
  for (const type of MESSAGE_TYPES) {
    const envelope = envelopeSchema.extend({
      type: z.literal(type),
      data: messageData[type] as unknown as z.ZodObject,
    })
    messages[type] = {
      name: type,
      title: `${type} message`,
      summary: senders(type),
      contentType: 'application/json',
      payload: jsonSchema(envelope),
    }
    channels[`up_${type}`] = {
      address: `aed/v1/{serial}/up/${type}`,
      parameters: serialParameter,
      messages: { [type]: { $ref: `#/components/messages/${type}` } },
    }
    operations[`send_${type}`] = {
      action: 'send',
      channel: { $ref: `#/channels/up_${type}` },
      summary: `Publish one ${type} message (QoS 1, not retained); the PUBACK comes after it is committed`,
      bindings: qos1,
    }
  }
  messages.command = {
    name: 'command',
    title: 'A command',
    summary: 'Run each cmd_id once, not after expires_at, and answer it with an ack message',
    contentType: 'application/json',
    payload: jsonSchema(deviceCommandSchema),
  }
  messages.result = {
    name: 'result',
    title: 'What became of a publish',
    summary: 'Published for a publish that was refused (nothing stored) or stale (stored as history)',
    contentType: 'application/json',
    payload: jsonSchema(publishResultSchema),
  }
  channels.down_cmd = {
    address: 'aed/v1/{serial}/down/cmd',
    parameters: serialParameter,
    messages: { command: { $ref: '#/components/messages/command' } },
  }
  channels.down_result = {
    address: 'aed/v1/{serial}/down/result',
    parameters: serialParameter,
    messages: { result: { $ref: '#/components/messages/result' } },
  }
  operations.receive_command = {
    action: 'receive',
    channel: { $ref: '#/channels/down_cmd' },
    summary: 'Subscribe to aed/v1/{serial}/down/# at QoS 1 after every CONNACK',
    bindings: qos1,
  }
  operations.receive_result = {
    action: 'receive',
    channel: { $ref: '#/channels/down_result' },
    bindings: qos1,
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'AED Cloud device protocol',
      version: String(PROTOCOL_VERSION),
      description:
        'How an AED or a rescue cabinet reports to AED Cloud over MQTT 3.1.1, described from the device. ' +
        'The rules (signatures, message order, stale messages, commands, limits) are in docs/device-protocol.md; ' +
        'the HTTPS calls (/device-api/v1/messages, /device-api/v1/files) are in the OpenAPI document at /api/docs.',
    },
    defaultContentType: 'application/json',
    servers: servers(s),
    channels,
    operations,
    components: {
      messages,
      securitySchemes: {
        devicePassword: {
          type: 'userPassword',
          description:
            'CONNECT with client id = serial, username `{serial}|{ts}` (Unix ms, within 15 minutes of the server), ' +
            'password hex(HMAC-SHA256(secret, serial + ts)) keyed with the 64-character secret text; ' +
            'each password is accepted once, so compute a new one for every CONNECT',
        },
      },
    },
  }
}
