export {
  type CertificateKeyPair,
  createCertificateAuthority,
  DEFAULT_CA_VALIDITY_MS,
  DEFAULT_LEAF_VALIDITY_MS,
  type IssueTiming,
  issueClientCertificate,
  issueServingCertificate,
} from './certificate-factory.js';
export {
  ADMIN_GROUP,
  ADMIN_USER,
  type CertificateFiles,
  defaultHostNames,
  type EnsureCertificatesOptions,
  ensureCertificates,
  type RegeneratedCertificates,
  type ServingCertificates,
} from './ensure-certificates.js';
export { TlsConfigError } from './errors.js';
export { type AdminKubeconfigOptions, buildAdminKubeconfig, writeAdminKubeconfig } from './kubeconfig.js';
