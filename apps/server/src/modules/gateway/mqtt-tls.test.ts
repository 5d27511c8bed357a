import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { brokerCertificate, configuredCertificate, generatedCertificate } from './mqtt-tls.ts'

// The embedded broker's TLS certificate: generated once into DATA_DIR/secrets and kept.

const dirs: string[] = []
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-tls-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

describe('the generated MQTT certificate', () => {
  it('is EC P-256, CN aedcloud-mqtt, for localhost and 127.0.0.1, valid 10 years; the key is 0600', async () => {
    const dataDir = tempDir()
    const now = new Date('2026-01-10T00:00:00Z')
    const made = await generatedCertificate(dataDir, now)
    expect(made).toMatchObject({
      certPath: path.join(dataDir, 'secrets', 'mqtt-tls-cert.pem'),
      keyPath: path.join(dataDir, 'secrets', 'mqtt-tls-key.pem'),
      selfSigned: true,
      created: true,
    })
    const cert = new crypto.X509Certificate(fs.readFileSync(made.certPath))
    expect(cert.subject).toBe('CN=aedcloud-mqtt')
    expect(cert.issuer).toBe('CN=aedcloud-mqtt')
    expect(cert.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1')
    expect(cert.ca).toBe(false)
    expect(cert.publicKey.asymmetricKeyType).toBe('ec')
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1')
    expect(new Date(cert.validTo).getUTCFullYear()).toBe(2036)
    expect(new Date(cert.validFrom).getTime()).toBeLessThanOrEqual(now.getTime())
    expect(cert.checkHost('localhost')).toBe('localhost')
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1')
    expect(cert.verify(cert.publicKey)).toBe(true)
    expect(made.fingerprint).toBe(cert.fingerprint256)
    expect(cert.checkPrivateKey(crypto.createPrivateKey(fs.readFileSync(made.keyPath)))).toBe(true)
    expect(fs.statSync(made.keyPath).mode & 0o777).toBe(0o600)
    expect(fs.statSync(path.dirname(made.keyPath)).mode & 0o777).toBe(0o700)
    expect(fs.readdirSync(path.dirname(made.keyPath)).sort()).toEqual([
      'mqtt-tls-cert.pem',
      'mqtt-tls-key.pem',
    ])
  })

  it('is reused by later starts; a certificate without its key is an error, not replaced', async () => {
    const dataDir = tempDir()
    const first = await brokerCertificate({ dataDir })
    const again = await brokerCertificate({ dataDir })
    expect(again).toMatchObject({ created: false, fingerprint: first.fingerprint, certPath: first.certPath })

    const other = await generatedCertificate(tempDir())
    fs.copyFileSync(other.keyPath, first.keyPath)
    await expect(generatedCertificate(dataDir)).rejects.toThrow(/delete both/)
    fs.rmSync(first.keyPath)
    await expect(generatedCertificate(dataDir)).rejects.toThrow(/delete both/)
    // Only the certificate missing (a first start stopped between the two files): made anew.
    fs.rmSync(first.certPath)
    fs.copyFileSync(other.keyPath, first.keyPath)
    expect(await generatedCertificate(dataDir)).toMatchObject({ created: true })
  })

  it('a configured certificate is used as it is, and must come with its own key', async () => {
    const a = await generatedCertificate(tempDir())
    const b = await generatedCertificate(tempDir())
    const cert = await brokerCertificate({
      dataDir: tempDir(),
      MQTT_TLS_CERT: a.certPath,
      MQTT_TLS_KEY: a.keyPath,
    })
    expect(cert).toMatchObject({ selfSigned: false, created: false, fingerprint: a.fingerprint })
    expect(() => configuredCertificate(a.certPath, b.keyPath)).toThrow(/is not the key/)
  })
})
