import type { Language } from '@atalaya/contract';

interface LegalText {
  title: string;
  sections: { heading: string; body: string }[];
}

/** Terms of use under Spanish law; {{company}} and {{jurisdiction}} are filled in from the site config. */
export const LEGAL: Record<Language, LegalText> = {
  es: {
    title: 'Aviso legal y condiciones de uso',
    sections: [
      {
        heading: 'Titular',
        body: 'Este panel de control es un servicio de {{company}}, destinado exclusivamente a clientes profesionales (revendedores y empresas). No se ofrece a consumidores.',
      },
      {
        heading: 'Uso del servicio',
        body: 'El acceso requiere credenciales personales. El usuario es responsable de custodiarlas y de toda actividad realizada con ellas, y se compromete a no usar el panel para fines ilícitos ni contrarios a la buena fe.',
      },
      {
        heading: 'Datos personales',
        body: 'Los datos se tratan conforme al Reglamento (UE) 2016/679 (RGPD) y a la Ley Orgánica 3/2018 de Protección de Datos Personales y garantía de los derechos digitales, con la finalidad de prestar el servicio contratado.',
      },
      {
        heading: 'Responsabilidad',
        body: '{{company}} no responde de los daños derivados de un uso indebido del panel ni de interrupciones ajenas a su control, sin perjuicio de lo dispuesto en la Ley 34/2002 de Servicios de la Sociedad de la Información y de Comercio Electrónico.',
      },
      {
        heading: 'Ley aplicable y jurisdicción',
        body: 'Estas condiciones se rigen por la legislación española. Para cualquier controversia, las partes se someten a los juzgados y tribunales de {{jurisdiction}}.',
      },
    ],
  },
  en: {
    title: 'Legal notice and terms of use',
    sections: [
      {
        heading: 'Owner',
        body: 'This control panel is a service of {{company}}, offered only to professional customers (resellers and businesses). It is not offered to consumers.',
      },
      {
        heading: 'Use of the service',
        body: 'Access requires personal credentials. Users are responsible for keeping them safe and for all activity carried out with them, and undertake not to use the panel for unlawful purposes or in bad faith.',
      },
      {
        heading: 'Personal data',
        body: 'Data is processed under Regulation (EU) 2016/679 (GDPR) and Spanish Organic Law 3/2018 on the Protection of Personal Data and the Guarantee of Digital Rights, in order to provide the contracted service.',
      },
      {
        heading: 'Liability',
        body: '{{company}} is not liable for damage arising from misuse of the panel or from interruptions beyond its control, without prejudice to Spanish Law 34/2002 on Information Society Services and Electronic Commerce.',
      },
      {
        heading: 'Governing law and jurisdiction',
        body: 'These terms are governed by Spanish law. For any dispute the parties submit to the courts of {{jurisdiction}}.',
      },
    ],
  },
  ca: {
    title: 'Avís legal i condicions d’ús',
    sections: [
      {
        heading: 'Titular',
        body: 'Aquest tauler de control és un servei de {{company}}, adreçat exclusivament a clients professionals (revenedors i empreses). No s’ofereix a consumidors.',
      },
      {
        heading: 'Ús del servei',
        body: 'L’accés requereix credencials personals. L’usuari és responsable de custodiar-les i de tota l’activitat que s’hi faci, i es compromet a no fer servir el tauler per a finalitats il·lícites ni contràries a la bona fe.',
      },
      {
        heading: 'Dades personals',
        body: 'Les dades es tracten d’acord amb el Reglament (UE) 2016/679 (RGPD) i la Llei Orgànica 3/2018 de Protecció de Dades Personals i garantia dels drets digitals, amb la finalitat de prestar el servei contractat.',
      },
      {
        heading: 'Responsabilitat',
        body: '{{company}} no respon dels danys derivats d’un ús indegut del tauler ni d’interrupcions alienes al seu control, sens perjudici del que disposa la Llei 34/2002 de Serveis de la Societat de la Informació i de Comerç Electrònic.',
      },
      {
        heading: 'Llei aplicable i jurisdicció',
        body: 'Aquestes condicions es regeixen per la legislació espanyola. Per a qualsevol controvèrsia, les parts se sotmeten als jutjats i tribunals de {{jurisdiction}}.',
      },
    ],
  },
};

export const fillLegal = (text: string, company: string, jurisdiction: string) =>
  text.replaceAll('{{company}}', company).replaceAll('{{jurisdiction}}', jurisdiction);
