/** Texts of DNSSEC and the delegation check on the zone screen, and of managed DS on the domain's, in es, en and ca. */
export const dnssec = {
  es: {
    'dns.dnssec_switch': 'Firma DNSSEC',
    'dns.dnssec_state_off': 'Sin firmar',
    'dns.dnssec_state_signing': 'Firmando…',
    'dns.dnssec_state_on': 'Firmada',
    'dns.dnssec_state_withdrawing': 'Retirando el DS…',
    'dns.dnssec_state_waiting': 'Esperando a que caduque el DS',
    'dns.dnssec_state_unsigning': 'Dejando de firmar…',
    'dns.dnssec_confirm_on': 'Se firmará {{zone}} y su DS se publicará en el registro automáticamente. ¿Continuar?',
    'dns.dnssec_confirm_on_elsewhere':
      'Se firmará {{zone}}. Este panel no es su registrador: tendrás que publicar el DS que se muestre en tu registrador. ¿Continuar?',
    'dns.dnssec_confirm_off':
      'Se retirará el DS del registro y {{zone}} dejará de firmarse cuando el DS haya caducado en las cachés. Un DS publicado a mano también debe retirarse o el dominio dejará de resolver. ¿Continuar?',
    'dns.dnssec_confirm_off_elsewhere':
      'Si publicaste el DS de {{zone}} en tu registrador, retíralo antes: si no, el dominio dejará de resolver. ¿Continuar?',
    'dns.dnssec_waiting': 'La zona se dejará de firmar a partir de {{when}}',
    'dns.dnssec_key': 'Clave {{tag}} (algoritmo {{algorithm}})',
    'dns.dnssec_at_registry': 'En el registro',
    'dns.check': 'Comprobar la delegación',
    'dns.check_ok': 'Bien',
    'dns.check_warning': 'Aviso',
    'dns.check_error': 'Error',
    'domain.dnssec_managed': 'Gestionado',
    'domain.dnssec_managed_hint': 'Lo gestiona el panel para la zona firmada: se retira desactivando DNSSEC en la zona',
  },
  en: {
    'dns.dnssec_switch': 'DNSSEC signing',
    'dns.dnssec_state_off': 'Unsigned',
    'dns.dnssec_state_signing': 'Signing…',
    'dns.dnssec_state_on': 'Signed',
    'dns.dnssec_state_withdrawing': 'Withdrawing the DS…',
    'dns.dnssec_state_waiting': 'Waiting for the DS to expire',
    'dns.dnssec_state_unsigning': 'Unsigning…',
    'dns.dnssec_confirm_on': '{{zone}} will be signed and its DS published at the registry automatically. Continue?',
    'dns.dnssec_confirm_on_elsewhere':
      '{{zone}} will be signed. This panel is not its registrar: you will have to publish the DS shown at your registrar. Continue?',
    'dns.dnssec_confirm_off':
      'The DS will be withdrawn from the registry and {{zone}} will stop signing once the DS has expired from caches. A DS published by hand must be removed too, or the domain will stop resolving. Continue?',
    'dns.dnssec_confirm_off_elsewhere':
      'If you published the DS of {{zone}} at your registrar, remove it first: otherwise the domain will stop resolving. Continue?',
    'dns.dnssec_waiting': 'The zone stops signing from {{when}}',
    'dns.dnssec_key': 'Key {{tag}} (algorithm {{algorithm}})',
    'dns.dnssec_at_registry': 'At the registry',
    'dns.check': 'Check the delegation',
    'dns.check_ok': 'Fine',
    'dns.check_warning': 'Warning',
    'dns.check_error': 'Error',
    'domain.dnssec_managed': 'Managed',
    'domain.dnssec_managed_hint': 'The panel manages it for the signed zone: turn DNSSEC off in the zone to withdraw it',
  },
  ca: {
    'dns.dnssec_switch': 'Signatura DNSSEC',
    'dns.dnssec_state_off': 'Sense signar',
    'dns.dnssec_state_signing': 'Signant…',
    'dns.dnssec_state_on': 'Signada',
    'dns.dnssec_state_withdrawing': 'Retirant el DS…',
    'dns.dnssec_state_waiting': 'Esperant que caduqui el DS',
    'dns.dnssec_state_unsigning': 'Deixant de signar…',
    'dns.dnssec_confirm_on': 'Se signarà {{zone}} i el seu DS es publicarà al registre automàticament. Vols continuar?',
    'dns.dnssec_confirm_on_elsewhere':
      'Se signarà {{zone}}. Aquest panell no n’és el registrador: hauràs de publicar el DS que es mostri al teu registrador. Vols continuar?',
    'dns.dnssec_confirm_off':
      'Es retirarà el DS del registre i {{zone}} deixarà de signar-se quan el DS hagi caducat a les memòries cau. Un DS publicat a mà també s’ha de retirar o el domini deixarà de resoldre. Vols continuar?',
    'dns.dnssec_confirm_off_elsewhere':
      'Si vas publicar el DS de {{zone}} al teu registrador, retira’l abans: si no, el domini deixarà de resoldre. Vols continuar?',
    'dns.dnssec_waiting': 'La zona deixarà de signar-se a partir de {{when}}',
    'dns.dnssec_key': 'Clau {{tag}} (algorisme {{algorithm}})',
    'dns.dnssec_at_registry': 'Al registre',
    'dns.check': 'Comprovar la delegació',
    'dns.check_ok': 'Bé',
    'dns.check_warning': 'Avís',
    'dns.check_error': 'Error',
    'domain.dnssec_managed': 'Gestionat',
    'domain.dnssec_managed_hint': 'El gestiona el panell per a la zona signada: es retira desactivant DNSSEC a la zona',
  },
};
