/**
 * Server messages of free certificates (decision 019), in es, en and ca. `sites.acme_error_<type>`
 * translates an ACME problem type (RFC 8555 §6.7) for the name it concerns; the server's own
 * words follow in `detail`, so nothing it said is lost.
 */
export const acme = {
  es: {
    'expiry.mail_subject': 'Caduca pronto: {{name}}',
    'expiry.mail_certificate': 'El certificado SSL de {{name}} caduca el {{date}} (en {{days}} días). {{advice}}',
    'expiry.mail_domain': 'El dominio {{name}} caduca el {{date}} (en {{days}} días). Renuévalo para no perderlo.',
    'expiry.mail_service': 'El servicio de alojamiento {{name}} caduca el {{date}} (en {{days}} días). Renuévalo para que siga activo.',
    'expiry.advice_acme':
      'Es un certificado gratuito: el panel lo renueva solo, pero la última renovación no ha terminado; revisa el diálogo SSL del sitio.',
    'expiry.advice_upload': 'Es un certificado subido: sube uno nuevo o activa el certificado gratuito en el diálogo SSL del sitio.',
    'sites.acme_started': 'Pidiendo el certificado gratuito',
    'sites.acme_stopped': 'Certificado gratuito desactivado: el actual se mantiene hasta que lo sustituyas',
    'sites.acme_busy': 'Ya se está pidiendo un certificado para este sitio',
    'sites.acme_wildcard_zone': 'El comodín necesita que la zona DNS de {{reference}} esté en el panel',
    'sites.acme_error_dns': 'Problema de DNS: la autoridad no pudo resolver {{name}} ({{detail}})',
    'sites.acme_error_connection': 'La autoridad no pudo conectar con {{name}} para validarlo ({{detail}})',
    'sites.acme_error_unauthorized': 'La validación de {{name}} no recibió la respuesta esperada ({{detail}})',
    'sites.acme_error_incorrectResponse': 'La validación de {{name}} no recibió la respuesta esperada ({{detail}})',
    'sites.acme_error_caa': 'Un registro CAA de {{name}} no permite emitir a esta autoridad ({{detail}})',
    'sites.acme_error_rateLimited': 'La autoridad limita las peticiones por ahora; se volverá a intentar ({{detail}})',
    'sites.acme_error_rejectedIdentifier': 'La autoridad no emite certificados para {{name}} ({{detail}})',
    'sites.acme_error_other': 'La autoridad rechazó la petición: {{detail}}',
    'sites.acme_error_transient': 'No se pudo completar la emisión: {{detail}}',
    'sites.acme_error_unreachable':
      'No se puede contactar con la autoridad de certificación en {{url}} ({{detail}}). Vuelve a pedir el certificado cuando responda.',
  },
  en: {
    'expiry.mail_subject': 'Expiring soon: {{name}}',
    'expiry.mail_certificate': 'The SSL certificate of {{name}} expires on {{date}} (in {{days}} days). {{advice}}',
    'expiry.mail_domain': 'The domain {{name}} expires on {{date}} (in {{days}} days). Renew it so as not to lose it.',
    'expiry.mail_service': 'The hosting service {{name}} expires on {{date}} (in {{days}} days). Renew it to keep it running.',
    'expiry.advice_acme':
      'It is a free certificate: the panel renews it by itself, but the last renewal has not completed; check the site’s SSL dialog.',
    'expiry.advice_upload': 'It is an uploaded certificate: upload a new one or switch on the free certificate in the site’s SSL dialog.',
    'sites.acme_started': 'Requesting the free certificate',
    'sites.acme_stopped': 'Free certificate switched off: the current one stays until you replace it',
    'sites.acme_busy': 'A certificate is already being requested for this site',
    'sites.acme_wildcard_zone': 'The wildcard needs the DNS zone of {{reference}} in the panel',
    'sites.acme_error_dns': 'DNS problem: the authority could not resolve {{name}} ({{detail}})',
    'sites.acme_error_connection': 'The authority could not connect to {{name}} to validate it ({{detail}})',
    'sites.acme_error_unauthorized': 'The validation of {{name}} did not get the expected answer ({{detail}})',
    'sites.acme_error_incorrectResponse': 'The validation of {{name}} did not get the expected answer ({{detail}})',
    'sites.acme_error_caa': 'A CAA record of {{name}} does not allow this authority to issue ({{detail}})',
    'sites.acme_error_rateLimited': 'The authority is limiting requests for now; it will be tried again ({{detail}})',
    'sites.acme_error_rejectedIdentifier': 'The authority does not issue certificates for {{name}} ({{detail}})',
    'sites.acme_error_other': 'The authority refused the request: {{detail}}',
    'sites.acme_error_transient': 'The issuance could not be completed: {{detail}}',
    'sites.acme_error_unreachable':
      'The certificate authority at {{url}} cannot be reached ({{detail}}). Ask for the certificate again once it answers.',
  },
  ca: {
    'expiry.mail_subject': 'Caduca aviat: {{name}}',
    'expiry.mail_certificate': 'El certificat SSL de {{name}} caduca el {{date}} (d’aquí a {{days}} dies). {{advice}}',
    'expiry.mail_domain': 'El domini {{name}} caduca el {{date}} (d’aquí a {{days}} dies). Renova’l per no perdre’l.',
    'expiry.mail_service': 'El servei d’allotjament {{name}} caduca el {{date}} (d’aquí a {{days}} dies). Renova’l perquè continuï actiu.',
    'expiry.advice_acme':
      'És un certificat gratuït: el panell el renova tot sol, però la darrera renovació no ha acabat; revisa el diàleg SSL del lloc.',
    'expiry.advice_upload': 'És un certificat pujat: puja’n un de nou o activa el certificat gratuït al diàleg SSL del lloc.',
    'sites.acme_started': 'Demanant el certificat gratuït',
    'sites.acme_stopped': 'Certificat gratuït desactivat: l’actual es manté fins que el substitueixis',
    'sites.acme_busy': 'Ja s’està demanant un certificat per a aquest lloc',
    'sites.acme_wildcard_zone': 'El comodí necessita que la zona DNS de {{reference}} sigui al panell',
    'sites.acme_error_dns': 'Problema de DNS: l’autoritat no ha pogut resoldre {{name}} ({{detail}})',
    'sites.acme_error_connection': 'L’autoritat no ha pogut connectar amb {{name}} per validar-lo ({{detail}})',
    'sites.acme_error_unauthorized': 'La validació de {{name}} no ha rebut la resposta esperada ({{detail}})',
    'sites.acme_error_incorrectResponse': 'La validació de {{name}} no ha rebut la resposta esperada ({{detail}})',
    'sites.acme_error_caa': 'Un registre CAA de {{name}} no permet emetre a aquesta autoritat ({{detail}})',
    'sites.acme_error_rateLimited': 'L’autoritat limita les peticions per ara; es tornarà a provar ({{detail}})',
    'sites.acme_error_rejectedIdentifier': 'L’autoritat no emet certificats per a {{name}} ({{detail}})',
    'sites.acme_error_other': 'L’autoritat ha rebutjat la petició: {{detail}}',
    'sites.acme_error_transient': 'No s’ha pogut completar l’emissió: {{detail}}',
    'sites.acme_error_unreachable':
      'No es pot contactar amb l’autoritat de certificació a {{url}} ({{detail}}). Torna a demanar el certificat quan respongui.',
  },
};
